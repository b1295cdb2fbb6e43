// The shell: login, the connection (reconnecting after a drop), the navigation and the pages.
import { useEffect, useState } from "preact/hooks";
import { adoptToken, forgetToken, saveToken } from "./auth.js";
import { controlUrl, GatewayConnection, RequestError } from "./api/client.js";
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
  | { kind: "ready"; conn: GatewayConnection }
  | { kind: "lost"; reason: string; conn: GatewayConnection };

const RETRY_MS = [500, 1000, 2000, 5000];

export function App() {
  const [token, setToken] = useState<string | undefined>(() => adoptToken(window, sessionStorage));
  const [phase, setPhase] = useState<Phase>(() => (token === undefined ? { kind: "login" } : { kind: "connecting" }));
  const route = useRoute();

  useEffect(() => {
    if (token === undefined) return;
    let stopped = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: GatewayConnection | undefined;
    const open = () => {
      GatewayConnection.connect(controlUrl(location), token).then(
        (conn) => {
          if (stopped) return conn.close();
          attempt = 0;
          current = conn;
          setPhase({ kind: "ready", conn });
          conn.onClose((reason) => {
            if (stopped) return;
            setPhase({ kind: "lost", reason, conn });
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
            p.kind === "ready" || p.kind === "lost" ? { kind: "lost", reason: err.message, conn: p.conn } : { kind: "connecting" },
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
  const conn = phase.kind === "ready" || phase.kind === "lost" ? phase.conn : undefined;
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
        {conn ? <current.Page key={`${current.id}`} conn={conn} query={route.query} /> : <p class="muted">Connecting to the gateway…</p>}
      </main>
    </div>
  );
}
