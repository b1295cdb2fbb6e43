// The shell: login, the connection (reconnecting after a drop), the navigation and the pages.
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { adoptToken, forgetToken, saveToken } from "./auth.js";
import { controlUrl, GatewayConnection, RequestError } from "./api/client.js";
import type { StatusPayload } from "./api/types.js";
import { ChatPage } from "./pages/chat.js";
import { ChannelsPage } from "./pages/channels.js";
import { ConfigPage } from "./pages/config.js";
import { PairingPage } from "./pages/pairing.js";
import { SessionsPage } from "./pages/sessions.js";
import { StatusPage } from "./pages/status.js";
import { LoginForm } from "./login.js";

const PAGES = [
  { id: "chat", label: "Chat", Page: ChatPage },
  { id: "channels", label: "Channels", Page: ChannelsPage },
  { id: "pairing", label: "Pairing", Page: PairingPage },
  { id: "sessions", label: "Sessions", Page: SessionsPage },
  { id: "config", label: "Config", Page: ConfigPage },
  { id: "status", label: "Status", Page: StatusPage },
] as const;

/** Marked once, when the first connection is authenticated. */
export const CONNECTED_MARK = "openclaw:connected";

type PageId = (typeof PAGES)[number]["id"];

/** `#/sessions?key=...` -> {page: "sessions", query}. Unknown pages show the chat. */
export function routeOf(hash: string): { page: PageId; query: URLSearchParams } {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?");
  const page = PAGES.some((p) => p.id === path) ? (path as PageId) : "chat";
  return { page, query: new URLSearchParams(query) };
}

function useRoute() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return routeOf(hash);
}

type Phase =
  | { kind: "login"; error?: string }
  | { kind: "connecting" }
  | { kind: "ready"; conn: GatewayConnection; agents: Agents }
  | { kind: "lost"; reason: string; conn: GatewayConnection; agents: Agents };

type Agents = { id: string; default: boolean }[];

const RETRY_MS = [500, 1000, 2000, 5000];

export function App() {
  const [token, setToken] = useState<string | undefined>(() => adoptToken(window, sessionStorage));
  const [phase, setPhase] = useState<Phase>(() => (token === undefined ? { kind: "login" } : { kind: "connecting" }));
  const route = useRoute();

  // A layout effect, so the socket opens in the first task rather than after a paint.
  useLayoutEffect(() => {
    if (token === undefined) return;
    let stopped = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: GatewayConnection | undefined;
    const open = () => {
      // `status` leaves with the handshake's answer: every page needs the agents.
      GatewayConnection.connect(controlUrl(location), token, [{ method: "status" }])
        .then(async ({ connection, firstAnswers }) => ({ conn: connection, status: (await firstAnswers[0]) as StatusPayload }))
        .then(
          ({ conn, status }) => {
            if (stopped) return conn.close();
            attempt = 0;
            current = conn;
            if (performance.getEntriesByName(CONNECTED_MARK).length === 0) performance.mark(CONNECTED_MARK);
            const agents = status.agents ?? [];
            setPhase({ kind: "ready", conn, agents });
            conn.onClose((reason) => {
              if (stopped) return;
              setPhase({ kind: "lost", reason, conn, agents });
              timer = setTimeout(open, RETRY_MS[0]);
            });
          },
          (err: Error) => {
            if (stopped) return;
            if (err instanceof RequestError && err.code === "unauthorized") {
              forgetToken(sessionStorage);
              setToken(undefined);
              setPhase({
                kind: "login",
                error: "The gateway refused this token. Paste the token from `openclaw dashboard` (or <stateDir>/gateway.token).",
              });
              return;
            }
            setPhase((p) =>
              p.kind === "ready" || p.kind === "lost" ? { ...p, kind: "lost", reason: err.message } : { kind: "connecting" },
            );
            timer = setTimeout(open, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
          },
        );
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      current?.close();
    };
  }, [token]);

  if (phase.kind === "login" || token === undefined) {
    return (
      <LoginForm
        error={phase.kind === "login" ? phase.error : undefined}
        onToken={(t) => {
          saveToken(sessionStorage, t);
          setToken(t);
          setPhase({ kind: "connecting" });
        }}
      />
    );
  }
  const live = phase.kind === "ready" || phase.kind === "lost" ? phase : undefined;
  const current = PAGES.find((p) => p.id === route.page) ?? PAGES[0];
  return (
    <div class="shell">
      <nav class="nav">
        <span class="brand">OpenClaw</span>
        {PAGES.map((p) => (
          <a
            key={p.id}
            href={`#/${p.id}`}
            class={p.id === route.page ? "active" : ""}
            aria-current={p.id === route.page ? "page" : undefined}
          >
            {p.label}
          </a>
        ))}
        <button
          type="button"
          class="link logout"
          onClick={() => {
            forgetToken(sessionStorage);
            setToken(undefined);
            setPhase({ kind: "login" });
          }}
        >
          Log out
        </button>
      </nav>
      {phase.kind === "lost" && (
        <p class="banner warn" role="status">
          Reconnecting to the gateway… ({phase.reason})
        </p>
      )}
      <main class="page">
        {live ? (
          <current.Page key={`${current.id}?${route.query}`} conn={live.conn} agents={live.agents} query={route.query} />
        ) : (
          <p class="muted">Connecting to the gateway…</p>
        )}
      </main>
    </div>
  );
}
