// The shared `message` tool: the agent sends text to any configured channel target, through the
// gateway's delivery pipeline, under the same access rules as inbound messages.
import type { ChatRef } from "@openclaw/plugin-sdk";
import { z } from "zod";
import { accountChannelConfig, checkOutboundAccess, type PairingGate } from "../access/index.js";
import { defineTool, ToolError, type AgentTool } from "../tool-contract/index.js";
import { parseMessageTarget, type ParseTargetOptions } from "./target.js";

/** Where the `message` tool hands a send. */
export interface MessageSendTarget {
  channel: string;
  accountId: string;
  chat: ChatRef;
}

export interface MessageToolOptions {
  /** The whole config (`channels`, with accounts); read on each call. */
  config: unknown;
  /** Approved pairings, for DM targets under `dmPolicy: "pairing"`. */
  pairing: Pick<PairingGate, "isApproved">;
  /** The gateway's delivery pipeline (chunking, send budget, idempotency); resolves with the platform's message ids. */
  send(target: MessageSendTarget, text: string): Promise<{ messageIds: string[] }>;
  /** The account ids of a channel; see {@link ParseTargetOptions.listAccounts}. */
  listAccounts?: ParseTargetOptions["listAccounts"];
  /** The id rules of each channel (the loaded plugins'). */
  rulesOf?: ParseTargetOptions["rulesOf"];
}

const messageArgs = z.object({
  target: z
    .string()
    .min(1)
    .describe(
      'Where to send: "<channel>:<chat>" (the channel\'s default account) or "<channel>:<account>:<chat>", e.g. "<channel>:123456789" or "<channel>:!room:example.org" (use the chat ids the channel shows).',
    ),
  text: z.string().describe("The message text (Markdown); long texts are split by the channel."),
  kind: z
    .enum(["direct", "group", "channel"])
    .optional()
    .describe("The kind of chat, when its id does not tell (default: inferred from the id and the configured groups)."),
  threadId: z.string().optional().describe("A thread or forum topic inside the chat."),
});

/** The ids of the channels configured (and not switched off), for the tool's description. */
function configuredChannels(config: unknown): string {
  const channels = (config as { channels?: Record<string, unknown> } | undefined)?.channels ?? {};
  const ids = Object.entries(channels)
    .filter(([, v]) => v !== undefined && (v as { enabled?: unknown } | null)?.enabled !== false)
    .map(([id]) => id);
  return ids.length > 0 ? ids.join(", ") : "none configured";
}

/**
 * The `message` tool (policy group `group:messaging`). It resolves the target against the
 * configured channels and accounts, applies the outbound access policy (a DM target must be in
 * `allowFrom` or an approved pairing, or `dmPolicy` open; a group target must pass
 * `groupPolicy`/`groups`), then calls `send`. A refused target, a blank text or a failed send
 * comes back to the model as an error result.
 */
export function createMessageTool(options: MessageToolOptions): AgentTool {
  return defineTool({
    name: "message",
    description:
      `Send a message to a person or group on a configured channel (${configuredChannels(options.config)}). Only chats the owner allowed can be reached. ` +
      "Your reply to the current conversation is delivered automatically; use this tool only to reach another chat.",
    groups: ["group:messaging"],
    schema: messageArgs,
    async run(args) {
      if (args.text.trim() === "") throw new ToolError("message: text is empty; nothing was sent.");
      const parsed = parseMessageTarget(args.target, options.config, {
        ...(args.kind ? { kind: args.kind } : {}),
        ...(args.threadId ? { threadId: args.threadId } : {}),
        ...(options.listAccounts ? { listAccounts: options.listAccounts } : {}),
        ...(options.rulesOf ? { rulesOf: options.rulesOf } : {}),
      });
      if (!parsed.ok) throw new ToolError(`message: ${parsed.error}`);
      const { channel, accountId, chat } = parsed.target;
      const accountConfig = accountChannelConfig(options.config, channel, accountId) ?? {};
      const access = checkOutboundAccess(
        chat,
        { channel, accountId, config: accountConfig, ids: options.rulesOf?.(channel) },
        options.pairing,
      );
      if (!access.ok) throw new ToolError(`message: refused: ${access.detail}`, { channel, accountId, chat });
      const { messageIds } = await options.send({ channel, accountId, chat }, args.text);
      const where = `${channel}:${accountId}:${chat.id}${chat.threadId ? ` (thread ${chat.threadId})` : ""}`;
      return {
        content: `Sent to ${where}${messageIds.length > 0 ? ` as message ${messageIds.join(", ")}` : ""}.`,
        details: { channel, accountId, chat, messageIds },
      };
    },
  });
}
