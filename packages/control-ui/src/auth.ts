// The gateway token: taken once from a `#token=` link (then removed from the address bar) or typed
// on the login form, kept in sessionStorage for this tab only, never rendered again.

const TOKEN_KEY = "openclaw.token";
const CLIENT_KEY = "openclaw.webchatClient";

export interface TokenStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Reads `#token=<t>` from `hash` (also as one of several `&`-joined fragment params). Returns the
 * token and the fragment left without it ("" when nothing else was there), or undefined.
 */
export function tokenFromFragment(hash: string): { token: string; rest: string } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token");
  if (!token) return undefined;
  params.delete("token");
  const rest = params.toString();
  return { token, rest: rest ? `#${rest}` : "" };
}

/**
 * Moves a token from the page's fragment into `store` and scrubs it from the URL and the history
 * entry (history.replaceState), so it is not bookmarked, shared or shown. Returns the stored token.
 */
export function adoptToken(win: Pick<Window, "location" | "history">, store: TokenStore): string | undefined {
  const found = tokenFromFragment(win.location.hash);
  if (found) {
    store.setItem(TOKEN_KEY, found.token);
    win.history.replaceState(null, "", `${win.location.pathname}${win.location.search}${found.rest}`);
  }
  return store.getItem(TOKEN_KEY) ?? undefined;
}

export function saveToken(store: TokenStore, token: string): void {
  store.setItem(TOKEN_KEY, token);
}

export function forgetToken(store: TokenStore): void {
  store.removeItem(TOKEN_KEY);
}

/**
 * This browser's WebChat id (lowercase hex, kept in localStorage), so its chat session
 * `agent:<id>:webchat:<clientId>` survives reloads. `fresh` when it was minted by this call: no
 * session can have that key yet.
 */
export function webchatClient(store: TokenStore, random: () => string = () => crypto.randomUUID()): { id: string; fresh: boolean } {
  const existing = store.getItem(CLIENT_KEY);
  if (existing && /^[0-9a-f]{8,32}$/.test(existing)) return { id: existing, fresh: false };
  const id = random().replace(/-/g, "").slice(0, 16).toLowerCase();
  store.setItem(CLIENT_KEY, id);
  return { id, fresh: true };
}

/** The WebChat session key of `agentId` for this browser. */
export function webchatSessionKey(agentId: string, clientId: string): string {
  return `agent:${agentId}:webchat:${clientId}`;
}
