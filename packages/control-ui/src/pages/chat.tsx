// WebChat: pick an agent and session, read the history (earlier pages load on scrolling up), send,
// watch the reply stream in, abort. `/new` and other chat commands go through like any message.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { webchatClient, webchatSessionKey } from "../auth.js";
import type { PageProps } from "./page.js";
import { useEvent, useRequest } from "../api/hooks.js";
import type { AgentEvent, SessionRow, StartedRun } from "../api/types.js";
import { useHistory } from "../chat/history.js";
import { applyAgentEvent, emptyReply, type LiveReply } from "../chat/reply.js";
import { LiveReplyView, Row } from "../chat/rows.js";
import { transcriptRows } from "../chat/transcript.js";

/** Marked once, when the chat first accepts input: the budget test reads it. */
export const CHAT_READY_MARK = "openclaw:chat-ready";

interface Turn {
  text: string;
  reply: LiveReply | undefined;
}

export function ChatPage(props: PageProps) {
  const { conn, agents } = props;
  const [agentId, setAgentId] = useState<string | undefined>(props.query.get("agent") ?? undefined);
  const agent = agentId ?? agents.find((a) => a.default)?.id ?? agents[0]?.id;
  // Read once per page: a client id minted now has no transcript to wait for.
  const [client] = useState(() => webchatClient(localStorage));
  const ownKey = agent ? webchatSessionKey(agent, client.id) : undefined;
  const [chosenKey, setChosenKey] = useState<string | undefined>(props.query.get("session") ?? undefined);
  const sessionKey = chosenKey ?? ownKey;
  const sessions = useRequest<{ sessions: SessionRow[] }>(conn, "sessions.list", agent ? { agentId: agent } : {}, agent);
  const history = useHistory(conn, agent, sessionKey);

  const [turn, setTurn] = useState<Turn | undefined>();
  const runRef = useRef<{ runId: string | undefined; early: { runId: string; event: AgentEvent }[] }>({ runId: undefined, early: [] });
  const [draft, setDraft] = useState("");
  const [sendError, setSendError] = useState<string | undefined>();

  // The run ended: the stored transcript replaces the live reply in the same render (shown once).
  const finish = useCallback(() => {
    runRef.current.runId = undefined;
    void history.refresh(() => {
      setTurn(undefined);
      sessions.reload();
    });
  }, [history.refresh, sessions.reload]);

  const onAgentEvent = useCallback(
    (payload: unknown) => {
      const { runId, event } = payload as { runId: string; event: AgentEvent };
      const run = runRef.current;
      if (run.runId === undefined) {
        run.early.push({ runId, event }); // the answer to `agent` is still on its way
        return;
      }
      if (runId !== run.runId) return;
      if (event.type === "error") setSendError(event.message);
      setTurn((t) => (t?.reply ? { ...t, reply: applyAgentEvent(t.reply, event) } : t));
      if (event.type === "run_end") finish();
    },
    [finish],
  );
  useEvent(conn, "agent", onAgentEvent);

  const send = async (text: string) => {
    if (!text.trim() || !sessionKey) return;
    setSendError(undefined);
    setDraft("");
    runRef.current = { runId: undefined, early: [] };
    setTurn({ text, reply: undefined });
    try {
      const started = await conn.request<StartedRun>("agent", { message: text, sessionKey, ...(agent ? { agentId: agent } : {}) });
      const early = runRef.current.early;
      runRef.current = { runId: started.runId, early: [] };
      let reply = emptyReply(started.runId);
      for (const e of early) if (e.runId === started.runId) reply = applyAgentEvent(reply, e.event);
      setTurn({ text, reply });
      if (reply.status !== "streaming") finish();
    } catch (err) {
      setTurn(undefined);
      setDraft(text);
      setSendError((err as Error).message);
    }
  };

  const abort = () => {
    const runId = runRef.current.runId;
    if (runId) void conn.request("chat.abort", { runId }).catch((err: Error) => setSendError(err.message));
  };

  const busy = turn !== undefined;
  const ready = sessionKey !== undefined && (history.loaded || (client.fresh && sessionKey === ownKey));
  useEffect(() => {
    if (ready && performance.getEntriesByName(CHAT_READY_MARK).length === 0) performance.mark(CHAT_READY_MARK);
  }, [ready]);

  const rows = useMemo(() => transcriptRows(history.events), [history.events]);
  const scroller = useScrollKeeper(history);
  const otherSessions = (sessions.data?.sessions ?? []).filter((s) => s.key !== ownKey);

  return (
    <section class="chat">
      <header class="toolbar">
        <label>
          Agent{" "}
          <select
            value={agent}
            onChange={(e) => {
              setAgentId((e.target as HTMLSelectElement).value);
              setChosenKey(undefined);
            }}
          >
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.id}
                {a.default ? " (default)" : ""}
              </option>
            ))}
          </select>
        </label>
        <label>
          Session{" "}
          <select value={sessionKey} onChange={(e) => setChosenKey((e.target as HTMLSelectElement).value)}>
            {ownKey && <option value={ownKey}>This browser (WebChat)</option>}
            {otherSessions.map((s) => (
              <option key={s.key} value={s.key}>
                {s.displayName ? `${s.displayName} — ${s.key}` : s.key}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy || !ready} onClick={() => void send("/new")} title="Start a new session for this key">
          New session
        </button>
      </header>
      <div class="messages" ref={scroller} data-testid="messages">
        {history.hasEarlier && (
          <button type="button" class="link earlier" disabled={history.loading} onClick={() => void history.loadEarlier()}>
            {history.loading ? "Loading…" : "Load earlier messages"}
          </button>
        )}
        {history.loaded && rows.length === 0 && !turn && <p class="muted empty">No messages yet. Say hello.</p>}
        {rows.map((row) => (
          <Row key={`${row.kind}:${row.seq}:${row.kind === "tool" ? row.callId : ""}`} row={row} />
        ))}
        {turn && <div class="msg user pending">{turn.text}</div>}
        {turn?.reply && <LiveReplyView reply={turn.reply} />}
        {history.error && <p class="error">{history.error}</p>}
      </div>
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send(draft);
        }}
      >
        <textarea
          name="message"
          aria-label="Message"
          rows={2}
          value={draft}
          disabled={!ready}
          placeholder={ready ? "Message the agent (Enter sends, Shift+Enter adds a line; /new starts over)" : "Loading…"}
          onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              if (!busy) void send(draft);
            }
          }}
        />
        {busy ? (
          <button type="button" class="danger" onClick={abort}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!ready || !draft.trim()}>
            Send
          </button>
        )}
      </form>
      {sendError && (
        <p class="error" role="alert">
          {sendError}
        </p>
      )}
    </section>
  );
}

/**
 * Keeps the message list pinned to the bottom while the user is there, keeps the view still when
 * earlier messages are prepended, and loads earlier messages when scrolled to the top. Runs after
 * every render of the page, so streamed text keeps the newest line in view.
 */
function useScrollKeeper(history: { hasEarlier: boolean; loading: boolean; loadEarlier(): Promise<void> }) {
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const fromBottom = useRef(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (pinned.current) el.scrollTop = el.scrollHeight;
    else el.scrollTop = el.scrollHeight - el.clientHeight - fromBottom.current;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      fromBottom.current = el.scrollHeight - el.clientHeight - el.scrollTop;
      pinned.current = fromBottom.current < 24;
      if (el.scrollTop < 40 && history.hasEarlier && !history.loading) void history.loadEarlier();
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [history.hasEarlier, history.loading, history.loadEarlier]);
  return ref;
}
