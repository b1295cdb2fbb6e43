// How the cases drive replies: the delivery engine (@openclaw/delivery), exactly as a host would use it.
import assert from "node:assert/strict";
import {
  deliverFinal,
  InMemoryDeliveryLedger,
  NativeStreamController,
  PreviewController,
  type DeliveryLedger,
  type SendBudget,
} from "@openclaw/delivery";
import { chunkText, type ChatRef, type OutboundTarget } from "@openclaw/plugin-sdk";
import type { ConformanceSession, OutboundCallRecord } from "./host.js";

let replies = 0;

/** A unique reply key (idempotency keys derive from it). */
export function replyKey(caseId: string): string {
  replies += 1;
  return `conformance:${caseId}:${replies}`;
}

/** The budget key of a chat, as core builds it. */
export function chatKeyOf(chat: ChatRef): string {
  return chat.threadId !== undefined ? `${chat.id}:${chat.threadId}` : chat.id;
}

/** A live preview of one reply into `chat`, paced at the channel's `minEditIntervalMs`. */
export function openPreview(
  session: ConformanceSession,
  chat: ChatRef,
  budget: SendBudget,
  signal: AbortSignal,
  key: string,
): PreviewController {
  return new PreviewController({
    outbound: session.outbound,
    target: { chat },
    budget,
    chatKey: chatKeyOf(chat),
    textLimit: session.textLimit,
    editLimit: session.editLimit,
    throttleMs: session.throttleMs,
    format: "plain",
    idempotencyKey: key,
    signal,
  });
}

/**
 * A native stream of one reply into `chat` with the channel's declared semantics, paced like a
 * preview. `inReplyTo` is the inbound message the reply answers (platforms with a reply quota,
 * like QQ Bot, stream only as a reply to a user message).
 */
export function openNativeStream(
  session: ConformanceSession,
  chat: ChatRef,
  budget: SendBudget,
  signal: AbortSignal,
  key: string,
  ledger: DeliveryLedger,
  inReplyTo?: string,
): NativeStreamController {
  return new NativeStreamController({
    ...(inReplyTo !== undefined ? { inReplyTo } : {}),
    outbound: session.outbound,
    target: { chat },
    budget,
    chatKey: chatKeyOf(chat),
    mode: session.capabilities.nativeStream ?? "replace",
    ledger,
    ledgerKey: `${key}:final`,
    textLimit: session.textLimit,
    throttleMs: session.throttleMs,
    format: "plain",
    idempotencyKey: key,
    signal,
  });
}

/** Preview ops (sends and edits the preview made) to `chatId`. */
export const isPreviewOp = (chatId: string) => (c: OutboundCallRecord) =>
  c.chatId === chatId && c.priority === "preview" && (c.op === "send" || c.op === "edit");

/**
 * Feeds `text` to the preview and waits until the preview has made one more send or edit that the
 * platform accepted (or, with `acceptFailure`, refused).
 */
export async function updateAndWait(
  session: ConformanceSession,
  preview: PreviewController,
  chatId: string,
  text: string,
  acceptFailure = false,
): Promise<OutboundCallRecord> {
  const after = session.seq();
  preview.update(text);
  const previewOp = isPreviewOp(chatId);
  return session.waitForCall((c) => previewOp(c) && (acceptFailure || c.ok === true), `a preview send or edit in chat ${chatId}`, after);
}

/**
 * Delivers `text` as a final reply without a preview: `chunkText` by the text limit, each part
 * through the budget as `"final"`, recorded in `ledger` under `key` (so a second call sends nothing).
 */
export async function deliverFinalText(
  session: ConformanceSession,
  options: {
    chat: ChatRef;
    text: string;
    budget: SendBudget;
    key: string;
    ledger?: DeliveryLedger;
    signal?: AbortSignal;
    /** The inbound message the reply answers (`SendOptions.inReplyTo`). */
    inReplyTo?: string;
    beforeSend?: (index: number) => void;
  },
): Promise<string[]> {
  const target: OutboundTarget = { chat: options.chat };
  const signal = options.signal ?? new AbortController().signal;
  const result = await deliverFinal({
    ledger: options.ledger ?? new InMemoryDeliveryLedger(),
    key: options.key,
    chunks: chunkText(options.text, { maxChars: session.textLimit }),
    send: async (chunk, index) => {
      options.beforeSend?.(index);
      const sent = await options.budget.run(
        chatKeyOf(options.chat),
        "final",
        () =>
          session.outbound.sendText(target, chunk, {
            signal,
            priority: "final",
            format: "plain",
            idempotencyKey: `${options.key}#${index}`,
            ...(options.inReplyTo !== undefined ? { inReplyTo: options.inReplyTo } : {}),
          }),
        { signal },
      );
      if (sent.status !== "sent") throw new Error(`the final part ${index} was dropped (${sent.reason})`);
      return sent.value;
    },
  });
  return result.messageIds;
}

/** True for the SDK's RateLimitedError (also across two copies of the SDK). */
export function isRateLimited(error: unknown): error is Error & { retryAfterMs: number } {
  return (
    error instanceof Error && error.name === "RateLimitedError" && typeof (error as { retryAfterMs?: unknown }).retryAfterMs === "number"
  );
}

/**
 * Fires the run's abort, then checks the property of an aborted reply: `finalize` rejects, nothing
 * is sent to `chatId` for two throttle intervals (but `typing` and the `allowed` ops), and the chat
 * shows at most one message, a prefix of `text`.
 */
export async function abortAndExpectSilence(
  session: ConformanceSession,
  options: {
    chatId: string;
    run: AbortController;
    reply: { update(text: string): void; finalize(text: string): Promise<unknown> };
    text: string;
    allowed?: ReadonlyArray<OutboundCallRecord["op"]>;
  },
): Promise<void> {
  const { chatId, reply, text } = options;
  options.run.abort(new Error("aborted by the user"));
  const abortedAt = Date.now();
  reply.update(text.slice(0, 300));
  await assert.rejects(reply.finalize(text), "finalize after the run's signal fired rejects");
  // Silence is the property under test: wait two edit intervals and look.
  await pause(2 * session.throttleMs + 100);
  const quiet = new Set(["typing", ...(options.allowed ?? [])]);
  const late = session.calls.find((c) => c.chatId === chatId && c.startedAt > abortedAt && !quiet.has(c.op));
  assert.equal(late, undefined, `a ${late?.op} (${late?.priority}) was made ${late ? late.startedAt - abortedAt : 0} ms after the abort`);
  const view = await session.view(chatId);
  assert.ok(view.messages.length <= 1, "at most the message that was shown stays");
  if (view.messages[0] !== undefined) assert.ok(text.startsWith(view.messages[0].text.trim()), "it shows a prefix of the reply");
}

/** Resolves after `ms` (only where the property under test is time itself: pacing, silence after abort). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Texts every version of each message showed, per message id, from the recorded calls to `chatId`. */
export function versionsByMessage(calls: readonly OutboundCallRecord[], chatId: string): Map<string, string[]> {
  const versions = new Map<string, string[]>();
  for (const c of calls) {
    if (c.chatId !== chatId || c.ok !== true || c.messageId === undefined || c.text === undefined) continue;
    if (c.op !== "send" && c.op !== "edit") continue;
    const list = versions.get(c.messageId) ?? [];
    list.push(c.text);
    versions.set(c.messageId, list);
  }
  return versions;
}
