// The conformance harness of the loopback channel: the reference for how a channel wires its
// fake platform into the suite.
import type { ChannelCapabilities } from "@openclaw/plugin-sdk";
import { createLoopbackPlatform } from "../loopback/platform.js";
import { createLoopbackPlugin, type LoopbackAccount } from "../loopback/plugin.js";
import type { LoopbackPlatform, LoopbackPlatformOptions } from "../loopback/types.js";
import type { ConformanceHarness } from "./types.js";

/** Payloads a broken platform might push: not JSON objects, missing fields, wrong types, unknown update types. */
export const LOOPBACK_BAD_PAYLOADS: readonly unknown[] = [
  "{not json",
  null,
  42,
  [],
  { type: "message" },
  { type: "message", message: { messageId: "x1", chat: { id: "c", kind: "direct" }, text: "no sender", mentionsBot: true, date: 0 } },
  {
    type: "message",
    message: { messageId: 7, chat: { id: "c", kind: "direct" }, from: { id: "u" }, text: "numeric id", mentionsBot: true, date: 0 },
  },
  {
    type: "message",
    message: { messageId: "x2", chat: { id: "c", kind: "supergroup" }, from: { id: "u" }, text: "bad kind", mentionsBot: true, date: 0 },
  },
  {
    type: "message",
    message: { messageId: "x3", chat: { id: "c", kind: "direct" }, from: { id: "u" }, text: { html: "<b>" }, mentionsBot: true, date: 0 },
  },
  { type: "poll", poll: { question: "an update type the channel does not handle" } },
];

/**
 * A conformance harness for the loopback channel on a new platform (the suite's own test of
 * itself, and a worked example for channel authors). `platform` and `capabilities` go to
 * `createLoopbackPlatform` and `createLoopbackPlugin`.
 */
export function loopbackConformanceHarness(
  options: {
    platform?: LoopbackPlatformOptions;
    capabilities?: Partial<ChannelCapabilities>;
    accountConfig?: Record<string, unknown>;
  } = {},
): ConformanceHarness<LoopbackAccount> & { loopback: LoopbackPlatform } {
  const platform = createLoopbackPlatform(options.platform);
  const plugin = createLoopbackPlugin(platform, options.capabilities ? { capabilities: options.capabilities } : {});
  const bot = "default";
  return {
    loopback: platform,
    plugin,
    accountConfig: options.accountConfig ?? {},
    platform: {
      async userSays(m) {
        await platform.userSays({
          sender: { id: m.senderId, ...(m.senderName !== undefined ? { name: m.senderName } : {}) },
          text: m.text,
          kind: m.kind ?? "direct",
          bot,
          ...(m.kind === "group" ? { chat: "conformance-group", title: "Conformance group" } : {}),
          ...(m.mentionsBot !== undefined ? { mentionsBot: m.mentionsBot } : {}),
        });
      },
      chatView(chatId) {
        const view = platform.chatView(chatId);
        return {
          messages: view.messages.map((m) => ({ messageId: m.messageId, text: m.text, edits: m.edits })),
          deleted: view.deleted.map((m) => ({ messageId: m.messageId, text: m.text })),
        };
      },
      inject429(count, retryAfterMs) {
        platform.rateLimit(count, retryAfterMs);
      },
      async injectBadPayload() {
        for (const payload of LOOPBACK_BAD_PAYLOADS) await platform.injectRaw(payload, { bot });
      },
      async close() {
        platform.clearFaults();
      },
    },
  };
}
