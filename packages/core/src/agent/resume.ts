// A turn run again after a crash, whose opening user entry is already in the transcript.
import type { StoredEvent } from "../sessions/index.js";
import { isSilentReply } from "../streaming/index.js";
import type { AgentEvent } from "./events.js";
import { recordedTurnState } from "./transcript.js";

/**
 * Replays what a recorded turn already answered, so a re-run neither calls the model again nor
 * records a second answer: an answer found after the opening entry at `seq` is emitted as one
 * text delta and the final; a turn superseded by a later one ends with a silent final (nothing
 * to deliver). Returns undefined when the turn stopped before its answer: the caller runs the
 * model on the history as it stands (the user's text is in it once).
 */
export function replayRecordedTurn(
  events: readonly StoredEvent[],
  seq: number,
  emit: (event: AgentEvent) => void,
): { text: string; silent: boolean } | undefined {
  const state = recordedTurnState(events, seq);
  if (state.kind === "unfinished") return undefined;
  if (state.kind === "superseded") {
    emit({ type: "final", text: "", silent: true });
    return { text: "", silent: true };
  }
  const silent = isSilentReply(state.text);
  if (!silent && state.text !== "") {
    emit({ type: "text_delta", text: state.text });
    emit({ type: "text_end" });
    emit({ type: "message_end", text: state.text, stopReason: "stop" });
  }
  const text = silent ? "" : state.text;
  emit({ type: "final", text, silent });
  return { text, silent };
}
