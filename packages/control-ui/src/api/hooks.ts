// Small Preact hooks over a connection: one request's answer, and an event subscription.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { GatewayConnection, GatewayEvent } from "./client.js";

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Asks again (after a change); keeps showing the old data meanwhile. */
  reload(): void;
}

/** Requests `method` with `params` on mount and whenever `key` changes; no request while `method` is undefined. */
export function useRequest<T>(conn: GatewayConnection, method: string | undefined, params?: unknown, key: unknown = ""): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  // A layout effect: the request leaves in the same task as the render, not after the next paint.
  useLayoutEffect(() => {
    let live = true;
    if (method === undefined) {
      setState({ data: undefined, error: undefined, loading: false });
      return;
    }
    setState((s) => ({ ...s, loading: true }));
    conn.request<T>(method, params).then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (err: Error) => live && setState((s) => ({ data: s.data, error: err.message, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [conn, method, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Calls `fn` for each event named `name` while mounted. */
export function useEvent(conn: GatewayConnection, name: string, fn: (payload: unknown, event: GatewayEvent) => void): void {
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => conn.onEvent((e) => e.event === name && latest.current(e.payload, e)), [conn, name]);
}

/** The methods the gateway offers (from its `connect` reply). */
export function hasMethod(conn: GatewayConnection, method: string): boolean {
  const methods = (conn.hello as { features?: { methods?: unknown } } | undefined)?.features?.methods;
  return Array.isArray(methods) && methods.includes(method);
}
