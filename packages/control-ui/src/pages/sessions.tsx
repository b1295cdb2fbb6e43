// Sessions of an agent: list, search (key, name and transcript text), a transcript with tool calls
// folded, and reset (a new session id for the key, as `/new` does).
import { useMemo, useState } from "preact/hooks";
import type { GatewayConnection } from "../api/client.js";
import { hasMethod, useRequest } from "../api/hooks.js";
import type { SessionRow } from "../api/types.js";
import type { PageProps } from "./page.js";
import { useHistory } from "../chat/history.js";
import { Row } from "../chat/rows.js";
import { transcriptRows } from "../chat/transcript.js";

function Transcript(props: { conn: GatewayConnection; agentId: string; sessionKey: string; onReset(): void }) {
  const { conn, agentId, sessionKey } = props;
  const history = useHistory(conn, agentId, sessionKey);
  const rows = useMemo(() => transcriptRows(history.events), [history.events]);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | undefined>();
  const reset = async () => {
    setConfirming(false);
    try {
      const answer = await conn.request<{ sessionId?: string }>("sessions.reset", { agentId, sessionKey });
      setNote(`Reset: the next message starts session ${answer.sessionId ?? "anew"}.`);
      await history.refresh();
      props.onReset();
    } catch (err) {
      setNote((err as Error).message);
    }
  };
  return (
    <article class="card transcript" data-session={sessionKey}>
      <header class="toolbar">
        <h2>{sessionKey}</h2>
        <a href={`#/chat?agent=${encodeURIComponent(agentId)}&session=${encodeURIComponent(sessionKey)}`}>Open in chat</a>
        {hasMethod(conn, "sessions.reset") &&
          (confirming ? (
            <>
              <button type="button" class="danger" onClick={() => void reset()}>
                Confirm reset
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <button type="button" class="secondary" onClick={() => setConfirming(true)}>
              Reset
            </button>
          ))}
      </header>
      {note && (
        <p class="muted" role="status">
          {note}
        </p>
      )}
      {history.hasEarlier && (
        <button type="button" class="link" disabled={history.loading} onClick={() => void history.loadEarlier()}>
          Load earlier entries
        </button>
      )}
      {history.loaded && rows.length === 0 && <p class="muted">This session has no messages.</p>}
      <div class="messages static">
        {rows.map((row) => (
          <Row key={`${row.kind}:${row.seq}:${row.kind === "tool" ? row.callId : ""}`} row={row} />
        ))}
      </div>
      {history.error && <p class="error">{history.error}</p>}
    </article>
  );
}

export function SessionsPage(props: PageProps) {
  const { conn, agents } = props;
  const [agentId, setAgentId] = useState<string | undefined>(props.query.get("agent") ?? undefined);
  const agent = agentId ?? agents.find((a) => a.default)?.id ?? agents[0]?.id;
  const [query, setQuery] = useState("");
  const [submitted, setSubmitted] = useState("");
  const list = useRequest<{ sessions: SessionRow[] }>(conn, "sessions.list", agent ? { agentId: agent } : {}, agent);
  const search = useRequest<{ sessions: SessionRow[] }>(
    conn,
    submitted ? "sessions.search" : undefined,
    submitted ? { query: submitted, ...(agent ? { agentId: agent } : {}) } : undefined,
    `${agent}:${submitted}`,
  );
  const [selected, setSelected] = useState<string | undefined>(props.query.get("key") ?? undefined);
  const rows = submitted ? (search.data?.sessions ?? []) : (list.data?.sessions ?? []);
  return (
    <section class="sessions">
      <h1>Sessions</h1>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(query.trim());
        }}
      >
        <label>
          Agent{" "}
          <select value={agent} onChange={(e) => setAgentId((e.target as HTMLSelectElement).value)}>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.id}
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          aria-label="Search sessions"
          placeholder="Search key, name or text"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Search</button>
        {submitted && (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setQuery("");
              setSubmitted("");
            }}
          >
            Clear
          </button>
        )}
      </form>
      {(list.error || (submitted && search.error)) && <p class="error">{submitted ? search.error : list.error}</p>}
      <div class="split">
        <ul class="session-list plain">
          {rows.length === 0 && <li class="muted">{submitted ? "No session matches." : "No sessions yet."}</li>}
          {rows.map((s) => (
            <li key={s.key}>
              <button type="button" class={`link${s.key === selected ? " active" : ""}`} onClick={() => setSelected(s.key)}>
                {s.displayName ?? s.key}
              </button>
              <span class="muted small">
                {" "}
                {s.channel ?? "control"} · {s.eventCount} entries · {new Date(s.updatedAt).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
        {selected && agent ? (
          <Transcript key={`${agent}:${selected}`} conn={conn} agentId={agent} sessionKey={selected} onReset={() => list.reload()} />
        ) : (
          <p class="muted">Pick a session to read its transcript.</p>
        )}
      </div>
    </section>
  );
}
