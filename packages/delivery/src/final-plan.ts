// What the final reply does to the preview messages a user has already seen.
import { isBlank } from "@openclaw/plugin-sdk";
import { splitForRollover } from "./rollover.js";
import { commonPrefixLength, segmentText, skipWhitespace, type Segment } from "./segments.js";

/** Internal: the final state of every shown preview message, and the text that follows them. */
export interface FinalPlan {
  /**
   * Every shown message in order with the text it must end with: `null` leaves it as it is (a
   * frozen message the final no longer matches), `""` deletes it (the final ends before it).
   */
  messages: Array<{ segment: Segment; text: string | null }>;
  /** Text after the last message, sent as new messages. */
  tail: string;
}

/**
 * Plans the final over the shown segments (`segments`, all sent, the last one open or treated as
 * open). Frozen messages whose text the final still extends keep their frozen text; the last
 * message is edited to the next part of the final; the rest becomes `tail`. When the final differs
 * from what frozen messages show, those stay untouched and the final resumes at the start of the
 * line where it differs, so nothing is deleted and nothing the final contains is lost. `next` is
 * the segment after the last shown one (when the last shown one is frozen): where the rest resumes.
 */
export function planFinal(segments: readonly Segment[], frozenText: string, finalText: string, limit: number, next?: Segment): FinalPlan {
  const k = segments.length - 1;
  const last = segments[k]!;
  let keep = 0;
  while (keep < k && finalText.startsWith(frozenText.slice(0, segments[keep]!.end))) keep++;
  if (keep === k && last.end !== undefined && next !== undefined && finalText.startsWith(frozenText.slice(0, next.start))) {
    // The last shown message is already frozen and the final extends it: it keeps the break it
    // froze at (re-splitting could move it and take back text the user saw), the rest follows.
    const messages: FinalPlan["messages"] = segments.map((segment) => ({ segment, text: segmentText(segment, "", frozenText) }));
    const body = finalText.slice(next.start);
    return { messages, tail: isBlank(body) ? "" : next.reopen + body };
  }
  let from: number;
  let reopen = "";
  if (keep === k) {
    reopen = last.reopen;
    const before = k > 0 ? segments[k - 1]!.end! : 0;
    from = finalText.startsWith(frozenText.slice(0, last.start)) ? last.start : skipWhitespace(finalText, before);
  } else {
    const differsAt = commonPrefixLength(finalText, frozenText);
    const floor = keep > 0 ? segments[keep - 1]!.end! : 0;
    const lineStart = finalText.lastIndexOf("\n", differsAt - 1) + 1;
    from = skipWhitespace(finalText, Math.max(floor, lineStart));
  }
  const messages: FinalPlan["messages"] = segments.slice(0, k).map((segment, i) => ({
    segment,
    text: i < keep ? segmentText(segment, "", frozenText) : null,
  }));
  const body = finalText.slice(from);
  if (isBlank(body)) {
    messages.push({ segment: last, text: "" });
    return { messages, tail: "" };
  }
  const rest = reopen + body;
  if (rest.length <= limit) {
    messages.push({ segment: last, text: rest });
    return { messages, tail: "" };
  }
  const seen = keep === k && last.shown !== undefined ? commonPrefixLength(rest, last.shown) : 0;
  const split = splitForRollover(rest, limit, Math.max(seen, reopen.length < limit / 2 ? reopen.length + 1 : 0));
  messages.push({ segment: last, text: rest.slice(0, split.cut) + split.closeFence });
  return { messages, tail: split.reopenFence + rest.slice(split.resume) };
}
