// Every account of every channel and its state, live (`channels.changed` events), with the fix for
// an error and a QR code when an account waits to be linked.
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { useEvent, useRequest } from "../api/hooks.js";
import type { GatewayConnection } from "../api/client.js";
import type { AccountReport, ChannelReport } from "../api/types.js";
import { QrCode } from "../qr.js";
import type { PageProps } from "./page.js";

const STATE_LABEL: Record<string, string> = {
  starting: "starting",
  connected: "connected",
  reconnecting: "reconnecting",
  stopped: "stopped",
  error: "error",
  "needs-login": "needs linking",
};

function Account(props: { account: AccountReport; conn: GatewayConnection }) {
  const a = props.account;
  const qr = a.login?.kind === "qr" && typeof a.login.data === "string" ? a.login.data : undefined;
  const [linking, setLinking] = useState<{ busy: boolean; error?: string }>({ busy: false });
  // `channels.login` starts the link in the gateway; the QR then arrives with `channels.changed`.
  const link = () => {
    setLinking({ busy: true });
    props.conn.request("channels.login", { channel: a.channel, accountId: a.accountId }).then(
      () => setLinking({ busy: false }),
      (err: unknown) => setLinking({ busy: false, error: err instanceof Error ? err.message : String(err) }),
    );
  };
  return (
    <li class="account" data-account={`${a.channel}:${a.accountId}`}>
      <div class="account-head">
        <strong>{a.name ?? a.accountId}</strong>
        {a.identity && <span class="muted"> {a.identity}</span>}
        <span class={`badge state-${a.state}`}>{STATE_LABEL[a.state] ?? a.state}</span>
      </div>
      {a.detail && <p class={a.state === "error" ? "error" : "muted"}>{a.detail}</p>}
      {a.state === "needs-login" && !qr && (
        <p>
          <button type="button" class="link-account" disabled={linking.busy} onClick={link}>
            Show the QR code to link it
          </button>
          {a.loginCommand && (
            <span class="muted">
              {" "}
              or run <code>{a.loginCommand}</code>
            </span>
          )}
        </p>
      )}
      {linking.error && <p class="error">{linking.error}</p>}
      {qr && (
        <div class="qr-box">
          <p>Scan with the phone: WhatsApp → Settings → Linked devices → Link a device.</p>
          <QrCode data={qr} label={`QR code to link ${a.channel} account ${a.accountId}`} />
        </div>
      )}
      {a.details && Object.keys(a.details).length > 0 && (
        <dl class="facts">
          {Object.entries(a.details).map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      {a.lastError && a.state !== "error" && <p class="muted">Last error: {a.lastError}</p>}
      {a.restarts > 0 && <p class="muted">Restarted {a.restarts} time(s) after a crash.</p>}
    </li>
  );
}

export function ChannelsPage(props: PageProps) {
  const loaded = useRequest<{ channels: ChannelReport[] }>(props.conn, "channels.status");
  const [pushed, setPushed] = useState<ChannelReport[] | undefined>();
  useEvent(props.conn, "channels.changed", (payload) => {
    const channels = (payload as { channels?: ChannelReport[] } | undefined)?.channels;
    if (Array.isArray(channels)) setPushed(channels);
  });
  const channels = pushed ?? loaded.data?.channels;
  return (
    <section>
      <h1>Channels</h1>
      {loaded.error && <p class="error">{loaded.error}</p>}
      {channels && channels.length === 0 && (
        <p class="muted">
          No channel is configured. Add one under <code>channels</code> in the config (see the Config page).
        </p>
      )}
      {channels?.map((c) => (
        <article key={c.channel} class="card" data-channel={c.channel}>
          <h2>{c.label}</h2>
          <ul class="accounts">
            {c.accounts.map((a) => (
              <Account key={a.accountId} account={a} conn={props.conn} />
            ))}
          </ul>
        </article>
      ))}
    </section>
  );
}
