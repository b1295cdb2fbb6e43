// One session's transcript, loaded a page at a time from the end (`sessions.history` with `before`).
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { GatewayConnection } from "../api/client.js";
import type { HistoryPage, StoredEvent } from "../api/types.js";
import { mergeEvents } from "./transcript.js";

/** Entries per page. */
export const PAGE_SIZE = 50;

export interface History {
  events: StoredEvent[];
  sessionId: string | undefined;
  /** False once the first entry is loaded (or the gateway cannot page). */
  hasEarlier: boolean;
  loading: boolean;
  /** Set after the first answer (a session with no transcript yet counts). */
  loaded: boolean;
  error: string | undefined;
  loadEarlier(): Promise<void>;
  /**
   * Reads the newest page again; a new session id (after `/new` or a reset) replaces everything.
   * `applied` runs in the same tick as the new rows are set (so a live reply can leave in the same render).
   */
  refresh(applied?: () => void): Promise<void>;
}

interface State {
  /** The session key this state belongs to. */
  key: string | undefined;
  events: StoredEvent[];
  sessionId: string | undefined;
  nextBefore: number | null;
  loading: boolean;
  loaded: boolean;
  error: string | undefined;
}

const EMPTY: State = { key: undefined, events: [], sessionId: undefined, nextBefore: null, loading: true, loaded: false, error: undefined };

export function useHistory(conn: GatewayConnection, agentId: string | undefined, sessionKey: string | undefined): History {
  const [state, setState] = useState<State>(EMPTY);
  const stateRef = useRef(state);
  stateRef.current = state;
  const target = useRef({ agentId, sessionKey });
  target.current = { agentId, sessionKey };

  const fetchPage = useCallback(
    async (before?: number): Promise<HistoryPage | undefined> => {
      const { agentId: a, sessionKey: k } = target.current;
      if (!k) return undefined;
      try {
        return await conn.request<HistoryPage>("sessions.history", {
          sessionKey: k,
          ...(a ? { agentId: a } : {}),
          limit: PAGE_SIZE,
          ...(before !== undefined ? { before } : {}),
        });
      } catch (err) {
        if ((err as { code?: string }).code === "not_found") return undefined; // no transcript yet
        throw err;
      }
    },
    [conn],
  );

  const refresh = useCallback(
    async (applied?: () => void) => {
      const key = target.current.sessionKey;
      setState((s) => ({ ...s, loading: true }));
      try {
        const page = await fetchPage();
        if (key !== target.current.sessionKey) return;
        setState((s) => {
          if (!page) return { ...EMPTY, key, loading: false, loaded: true };
          const sameSession = s.sessionId === page.sessionId;
          const events = sameSession ? mergeEvents(s.events, page.events) : page.events;
          const nextBefore = sameSession && s.loaded ? s.nextBefore : cursorOf(page);
          return { key, events, sessionId: page.sessionId, nextBefore, loading: false, loaded: true, error: undefined };
        });
        applied?.();
      } catch (err) {
        setState((s) => ({ ...s, loading: false, loaded: true, error: (err as Error).message }));
        applied?.();
      }
    },
    [fetchPage],
  );

  const loadEarlier = useCallback(async () => {
    const s = stateRef.current;
    if (s.nextBefore === null || s.loading) return;
    const key = target.current.sessionKey;
    setState((x) => ({ ...x, loading: true }));
    try {
      const page = await fetchPage(s.nextBefore);
      if (key !== target.current.sessionKey) return;
      setState((x) => ({
        ...x,
        events: page && page.sessionId === x.sessionId ? mergeEvents(page.events, x.events) : x.events,
        nextBefore: page ? cursorOf(page) : null,
        loading: false,
      }));
    } catch (err) {
      setState((x) => ({ ...x, loading: false, error: (err as Error).message }));
    }
  }, [fetchPage]);

  useLayoutEffect(() => {
    setState({ ...EMPTY, key: sessionKey });
    void refresh();
  }, [agentId, sessionKey, refresh]);

  // Until the first answer for this key arrives, show nothing of another key's transcript.
  const current = state.key === sessionKey;
  return {
    events: current ? state.events : [],
    sessionId: state.sessionId,
    hasEarlier: state.nextBefore !== null,
    loading: state.loading,
    loaded: current && state.loaded,
    error: state.error,
    loadEarlier,
    refresh,
  };
}

/** The cursor of the page before `page`: the gateway's `nextBefore`, or (an older gateway) none. */
function cursorOf(page: HistoryPage): number | null {
  if (page.nextBefore !== undefined) return page.nextBefore;
  return null;
}
