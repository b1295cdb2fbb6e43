// What a restart does with the unanswered messages of one session: decided from the transcript
// (what the agent already has) alone, so it can be tested without a gateway.
import type { RecordedInbound } from "../agent/index.js";
import type { InboxRow } from "./store.js";
import { inboxKeyOf } from "./turn.js";

/** The replay of one session's pending messages, in the order it runs. */
export interface SessionReplayPlan {
  /**
   * Messages whose own turn was recorded (their reply was under way): each is run again with
   * the text and keys its opening entry was recorded with, oldest first, so the runtime
   * recognises the turn and continues it instead of recording the text twice.
   */
  resume: { row: InboxRow; text: string; inboundKeys: string[] }[];
  /**
   * Messages the agent has (recorded as steering, or merged into another message's turn) whose
   * reply is another message's: settled once the resumed turns are done.
   */
  follow: InboxRow[];
  /** Messages that never reached the agent: handled as if they had just arrived, in arrival order. */
  fresh: InboxRow[];
}

/**
 * Sorts one session's pending rows (arrival order) by what the transcript holds: `recorded` maps
 * inbox keys to the first user entry that carries them (`recordedInbound`). A row is resumed when
 * its text opened a turn that answers it: its run had started, or the turn is its own (its key
 * is the entry's last: the queue puts the key of the message that shows the reply there, after
 * those of messages merged into the turn or joining it before it began). The second case is a
 * process killed after the opening entry was committed and before the inbox noted the run's
 * start (two databases, two commits): the turn was recorded but nothing of it was shown. A
 * recorded row whose reply belongs to another message follows; the rest is fresh.
 */
export function planSessionReplay(rows: readonly InboxRow[], recorded: ReadonlyMap<string, RecordedInbound>): SessionReplayPlan {
  const plan: SessionReplayPlan = { resume: [], follow: [], fresh: [] };
  for (const row of rows) {
    const key = inboxKeyOf(row.message);
    const entry = recorded.get(key);
    if (!entry) plan.fresh.push(row);
    else if (!entry.steered && (row.startedAt !== undefined || entry.keys[entry.keys.length - 1] === key))
      plan.resume.push({ row, text: entry.text, inboundKeys: entry.keys });
    else plan.follow.push(row);
  }
  return plan;
}
