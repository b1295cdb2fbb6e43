// Pending pairing requests (approve / reject) and each channel's allowlist (remove), through the
// same stores as `openclaw pairing`.
import { useState } from "preact/hooks";
import type { PageProps } from "./page.js";
import { useRequest } from "../api/hooks.js";
import type { PairingList } from "../api/types.js";

function when(ms: number | undefined): string {
  return ms === undefined ? "" : new Date(ms).toLocaleString();
}

export function PairingPage(props: PageProps) {
  const { conn } = props;
  const list = useRequest<PairingList>(conn, "pairing.list");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const act = async (method: string, params: unknown, done: string) => {
    try {
      await conn.request(method, params);
      setMessage({ ok: true, text: done });
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
    list.reload();
  };
  const pending = list.data?.pending ?? [];
  const allow = Object.entries(list.data?.allow ?? {});
  return (
    <section>
      <h1>Pairing</h1>
      {list.error && <p class="error">{list.error}</p>}
      {message && (
        <p class={message.ok ? "ok" : "error"} role="status">
          {message.text}
        </p>
      )}
      <h2>Pending requests</h2>
      {list.data && pending.length === 0 && (
        <p class="muted">No one is waiting. A stranger who messages a bot gets a code that shows up here.</p>
      )}
      {pending.length > 0 && (
        <table class="table pending">
          <thead>
            <tr>
              <th>Channel</th>
              <th>Sender</th>
              <th>Code</th>
              <th>Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {pending.map((p) => (
              <tr key={`${p.channel}:${p.code}`} data-code={p.code}>
                <td>
                  {p.channel}
                  {p.accountId && p.accountId !== "default" ? ` (${p.accountId})` : ""}
                </td>
                <td>
                  {p.senderName ? `${p.senderName} ` : ""}
                  <span class="muted">{p.senderId}</span>
                </td>
                <td>
                  <code>{p.code}</code>
                </td>
                <td>{when(p.expiresAt)}</td>
                <td class="actions">
                  <button
                    type="button"
                    onClick={() =>
                      void act(
                        "pairing.approve",
                        { channel: p.channel, code: p.code },
                        `Approved ${p.senderName ?? p.senderId} on ${p.channel}.`,
                      )
                    }
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() =>
                      void act(
                        "pairing.reject",
                        { channel: p.channel, code: p.code },
                        `Rejected the request from ${p.senderName ?? p.senderId}.`,
                      )
                    }
                  >
                    Reject
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Allowlists</h2>
      {list.data && allow.length === 0 && <p class="muted">No sender was approved yet.</p>}
      {allow.map(([channel, senders]) => (
        <article key={channel} class="card" data-allowlist={channel}>
          <h3>{channel}</h3>
          {senders.length === 0 ? (
            <p class="muted">Empty.</p>
          ) : (
            <ul class="plain">
              {senders.map((sender) => (
                <li key={`${sender.accountId}:${sender.senderId}`}>
                  {sender.senderName ? `${sender.senderName} ` : ""}
                  <code>{sender.senderId}</code>
                  {sender.accountId && sender.accountId !== "default" ? <span class="muted"> ({sender.accountId})</span> : null}{" "}
                  <button
                    type="button"
                    class="link"
                    onClick={() =>
                      void act(
                        "allowlist.remove",
                        { channel, senderId: sender.senderId },
                        `Removed ${sender.senderName ?? sender.senderId} from ${channel}.`,
                      )
                    }
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </article>
      ))}
    </section>
  );
}
