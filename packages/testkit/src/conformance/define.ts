// The channel conformance suite, independent of any test framework.
import { badInboundRejected, inboundToReply, longReplyChunked } from "./cases-basic.js";
import { contractShape, inboundInOrder } from "./cases-contract.js";
import { abortStopsStream, exactlyOneFinal, rateLimitHonoured } from "./cases-faults.js";
import { mediaSent } from "./cases-media.js";
import { nativeStreamAborted, nativeStreamFinal } from "./cases-native.js";
import { editsPaced, previewFinalizedInPlace, rolloverWithoutRepeats } from "./cases-preview.js";
import { typingShown } from "./cases-typing.js";
import { startSession, type ConformanceSession } from "./host.js";
import type { ChannelConformanceSpec, ConformanceCaseId } from "./types.js";

/** One check of the suite. `run` throws (node:assert) when the channel does not conform. */
export interface ConformanceCase {
  id: ConformanceCaseId;
  /** One line, used as the test name. */
  title: string;
  /** The case needs `outbound.editText` (skipped on channels that cannot edit). */
  needsEdit?: boolean;
  /** The case needs a power the channel declares (skipped on channels whose capabilities lack it). */
  needs?: "nativeStream" | "media" | "typing";
  run(session: ConformanceSession): Promise<void>;
}

/** Why `c` does not apply to the running channel (it lacks a power the case needs), or undefined. */
export function missingPower(c: ConformanceCase, session: ConformanceSession): string | undefined {
  if (c.needsEdit && session.outbound.editText === undefined) return "the channel cannot edit messages";
  if (c.needs === "nativeStream" && session.capabilities.nativeStream === undefined) return "the channel has no native stream";
  if (c.needs === "media" && !session.capabilities.media) return "the channel cannot send files";
  if (c.needs === "typing" && !session.capabilities.typing) return "the channel has no typing indicator";
  return undefined;
}

/** A case as registered: with the reason it is skipped, if it is. */
export interface PlannedCase extends ConformanceCase {
  skip?: string;
}

/** A conformance run for one channel: start it once, run the cases in order, stop it. */
export interface ChannelConformance {
  name: string;
  /** Every case, in the order to run them; `skip` says why a case does not apply. */
  cases: PlannedCase[];
  /** Hosts the harness's account (waits for "connected"). */
  start(): Promise<ConformanceSession>;
  /** Longest wait the cases make, for the test framework's timeouts. */
  timeoutMs: number;
}

/** Every case of the suite, in run order. */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  contractShape,
  inboundToReply,
  inboundInOrder,
  previewFinalizedInPlace,
  longReplyChunked,
  rolloverWithoutRepeats,
  exactlyOneFinal,
  rateLimitHonoured,
  abortStopsStream,
  badInboundRejected,
  editsPaced,
  nativeStreamFinal,
  nativeStreamAborted,
  mediaSent,
  typingShown,
];

/**
 * The channel conformance suite for one channel plugin. It hosts the plugin with the SDK alone
 * (no core): `listAccounts` -> `resolveAccount` -> `createOutbound` -> `start`, with an
 * AccountContext whose `receive` records every inbound message; then each case drives replies with
 * the delivery engine of `@openclaw/delivery` (`PreviewController`, `SendBudget` from `sendBudgetFor(capabilities)`,
 * `deliverFinal`, `chunkText`) and checks, through `harness.platform.chatView`, what a user of the
 * platform ends up seeing:
 *
 * - `contract-shape`: id, meta and config definition are well-formed; the harness's config passes
 *   the plugin's own schema; `listAccounts` lists the account; the declared capabilities match the
 *   outbound (`edit` <=> `editText`, `delete` <=> `deleteMessage`, `typing` <=> `typing`, `media`
 *   => `sendMedia`, `nativeStream` => `openStream`); with `brokenAccountConfig`, `resolveAccount`
 *   throws `AccountConfigError` naming `channels.<id>`.
 * - `inbound-to-reply`: a DM arrives as a well-formed InboundMessage (chat kind, sender, text) and
 *   a reply reaches the chat; a group message that mentions the bot arrives with `mentionsBot`.
 * - `inbound-in-order`: three messages of one chat arrive in order, once each, with distinct ids.
 * - `preview-finalized-in-place`: a partial preview is edited in place and ends as exactly the
 *   final text, in one message.
 * - `long-reply-chunked`: every message is within `capabilities.textLimit`; the messages read as the
 *   reply, nothing repeated or lost (whitespace at breaks aside).
 * - `rollover-without-repeats`: a preview past the edit limit continues in a new message; no
 *   message ever takes back text it showed; nothing is deleted.
 * - `exactly-one-final`: finalize twice, a retried `deliverFinal` and one cut short mid-reply each
 *   deliver every part exactly once.
 * - `rate-limit-honoured`: the platform's 429 surfaces as `RateLimitedError` with `retryAfterMs`;
 *   no call is made before it passed; a 429 storm during a preview still ends in exactly one final
 *   and no edit after it.
 * - `abort-stops-stream`: after the run's signal fires, nothing more is sent.
 * - `bad-inbound-rejected`: malformed inbound data never reaches `receive`, `start` keeps running,
 *   and the next good message arrives.
 * - `edits-paced`: preview edits of a message are at least `minEditIntervalMs` (default 1000, at
 *   least 250) apart, however fast the text grows.
 * - `native-stream` (channels with `capabilities.nativeStream`): a `NativeStreamController` opens
 *   the stream with the first text, its updates are paced and follow the declared semantics (a
 *   `replace` update is the whole text so far, an `append` update only the new text), and the chat
 *   ends with exactly the final, in one message; finalizing again with the same ledger sends nothing.
 * - `native-stream-aborted`: after the run's signal fires, the stream gets nothing but its abort,
 *   and it shows a prefix of the reply.
 * - `media-sent` (channels with `capabilities.media`): a file with a caption arrives once, as the
 *   message `sendMedia` reported, showing the caption.
 * - `typing-shown` (channels with `capabilities.typing`): `typing` resolves, adds no message, and
 *   a reply sent right after it arrives.
 *
 * Also checked throughout: `start` reports `connected`, does not end before its signal fires, and
 * resolves (not rejects) once it does. Cases needing edits are skipped on channels without
 * `editText`, and cases needing a native stream, files or typing on channels whose capabilities
 * lack them. Cases run in order against one account; each uses its own new DM chat.
 *
 * @example
 * // extensions/acme/test/conformance.test.ts
 * import { runChannelConformance } from "@openclaw/testkit/conformance";
 * runChannelConformance({
 *   name: "acme",
 *   async createHarness() {
 *     const fake = await startFakeAcme();
 *     return {
 *       plugin: acmePlugin,
 *       accountConfig: { token: fake.token, apiRoot: fake.url },
 *       platform: {
 *         userSays: (m) => fake.userSays(m.senderId, m.text, m.kind),
 *         chatView: (chatId) => fake.view(chatId),
 *         inject429: (count, ms) => fake.rateLimitNext(count, Math.ceil(ms / 1000)),
 *         injectBadPayload: () => fake.pushRawUpdate("{not json"),
 *         close: () => fake.close(),
 *       },
 *     };
 *   },
 * });
 */
export function defineChannelConformance<Account>(spec: ChannelConformanceSpec<Account>): ChannelConformance {
  const skip = spec.skip ?? {};
  const timeoutMs = spec.timeoutMs ?? 15_000;
  return {
    name: spec.name,
    timeoutMs,
    cases: CONFORMANCE_CASES.map((c) => {
      const reason = skip[c.id];
      return reason === undefined ? { ...c } : { ...c, skip: reason };
    }),
    start: () => startSession({ ...(spec as ChannelConformanceSpec<unknown>), timeoutMs }),
  };
}
