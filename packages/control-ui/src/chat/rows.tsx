// How transcript rows and a live reply look; shared by the Chat and Sessions pages.
import type { LiveReply } from "./reply.js";
import type { TranscriptRow } from "./transcript.js";

export function ToolRow(props: { row: Extract<TranscriptRow, { kind: "tool" }> }) {
  const { row } = props;
  const state = row.result === undefined ? "no result" : row.isError ? "failed" : "done";
  return (
    <details class={`tool${row.isError ? " failed" : ""}`}>
      <summary>
        <span class="tool-name">{row.name}</span> <span class="muted">{state}</span>
      </summary>
      {row.args && (
        <>
          <h4>Arguments</h4>
          <pre>{row.args}</pre>
        </>
      )}
      {row.result !== undefined && (
        <>
          <h4>Result</h4>
          <pre>{row.result}</pre>
        </>
      )}
    </details>
  );
}

export function Row(props: { row: TranscriptRow }) {
  const { row } = props;
  switch (row.kind) {
    case "user":
      return (
        <div class="msg user" data-seq={row.seq}>
          {row.text}
        </div>
      );
    case "assistant":
      return (
        <div class="msg assistant" data-seq={row.seq}>
          {row.text}
        </div>
      );
    case "tool":
      return <ToolRow row={row} />;
    case "note":
      return <p class="note muted">{row.text}</p>;
  }
}

/** The reply being streamed: text blocks and one activity line per tool call. */
export function LiveReplyView(props: { reply: LiveReply }) {
  const { reply } = props;
  return (
    <div class="live" aria-live="polite" data-status={reply.status}>
      {reply.parts.map((part, i) =>
        part.kind === "text" ? (
          <div key={i} class="msg assistant streaming">
            {part.text}
          </div>
        ) : (
          <p key={part.callId} class={`activity ${part.state}`}>
            {part.state === "running" ? "Running" : part.state === "error" ? "Failed" : "Ran"} <span class="tool-name">{part.name}</span>
            {part.durationMs !== undefined && <span class="muted"> ({part.durationMs} ms)</span>}
          </p>
        ),
      )}
      {reply.status === "streaming" && reply.parts.length === 0 && <p class="activity muted">Thinking…</p>}
      {reply.silent && <p class="activity muted">No reply (the agent chose to stay silent).</p>}
      {reply.error && (
        <p class="error" role="alert">
          {reply.error}
        </p>
      )}
      {reply.status === "aborted" && <p class="activity muted">Stopped.</p>}
    </div>
  );
}
