// The gateway at a glance: version, uptime, agents, channels, heartbeat and cron when the gateway
// has them, recent errors, and the tail of its log (refreshed every few seconds).
import { useEffect, useState } from "preact/hooks";
import type { GatewayConnection } from "../api/client.js";
import { hasMethod, useRequest } from "../api/hooks.js";
import type { LogLine, StatusPayload } from "../api/types.js";
import type { PageProps } from "./page.js";

const LOG_REFRESH_MS = 3000;

/** `93784000` -> "1d 2h 3m". */
export function formatUptime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** One `logs.tail` line as the terminal shows it: time, level, message. */
export function logLine(line: LogLine): string {
  const time = new Date(line.ts).toLocaleTimeString();
  return `${time} ${line.level.padEnd(5)} ${line.message}`;
}

/** A value the UI does not know the shape of (heartbeat, cron), as readable key/value lines. */
function Facts(props: { value: unknown }) {
  const { value } = props;
  if (value === null || typeof value !== "object") return <span>{String(value)}</span>;
  return <pre class="facts-json">{JSON.stringify(value, null, 2)}</pre>;
}

function LogTail(props: { conn: GatewayConnection }) {
  const [tick, setTick] = useState(0);
  const logs = useRequest<{ lines: LogLine[] }>(props.conn, "logs.tail", { lines: 200 }, tick);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), LOG_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <article class="card">
      <h2>Log</h2>
      {logs.error && <p class="error">{logs.error}</p>}
      <pre class="log" data-testid="log">
        {(logs.data?.lines ?? []).map(logLine).join("\n") || "(nothing logged yet)"}
      </pre>
    </article>
  );
}

export function StatusPage(props: PageProps) {
  const { conn } = props;
  const status = useRequest<StatusPayload>(conn, "status");
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const s = status.data;
  return (
    <section class="status">
      <h1>Status</h1>
      {status.error && <p class="error">{status.error}</p>}
      {s && (
        <article class="card">
          <dl class="facts">
            <dt>Version</dt>
            <dd data-testid="version">{s.version}</dd>
            <dt>Uptime</dt>
            <dd>{formatUptime(now - s.startedAt)}</dd>
            <dt>Listening</dt>
            <dd>
              port {s.port} ({s.bind})
            </dd>
            {s.pid !== undefined && (
              <>
                <dt>PID</dt>
                <dd>{s.pid}</dd>
              </>
            )}
            <dt>Agents</dt>
            <dd>{s.agents.map((a) => `${a.id}${a.default ? " (default)" : ""}`).join(", ")}</dd>
            <dt>Channels</dt>
            <dd>
              {s.channels.length === 0
                ? "none"
                : s.channels
                    .map(
                      (c) =>
                        `${c.label}: ${Object.entries(c.states)
                          .map(([state, n]) => `${n} ${state}`)
                          .join(", ")}`,
                    )
                    .join("; ")}
            </dd>
            {s.heartbeat !== undefined && (
              <>
                <dt>Heartbeat</dt>
                <dd>
                  <Facts value={s.heartbeat} />
                </dd>
              </>
            )}
            {s.cron !== undefined && (
              <>
                <dt>Cron</dt>
                <dd>
                  <Facts value={s.cron} />
                </dd>
              </>
            )}
          </dl>
          {s.recentErrors && s.recentErrors.length > 0 && (
            <>
              <h2>Recent errors</h2>
              <ul class="plain">
                {s.recentErrors.map((e, i) => (
                  <li key={i} class="error">
                    {e.message}
                  </li>
                ))}
              </ul>
            </>
          )}
        </article>
      )}
      {hasMethod(conn, "logs.tail") && <LogTail conn={conn} />}
    </section>
  );
}
