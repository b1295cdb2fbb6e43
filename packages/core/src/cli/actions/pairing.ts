// `openclaw pairing list|approve|revoke`, loaded only when one of them runs. These write the
// state database directly, in short transactions (WAL, busy timeout); the gateway reads the
// same tables on every DM, so a change applies at the sender's next message.
import { existsSync } from "node:fs";
import { createPairingStore, type ApprovedSender, type PendingPairing } from "../../access/index.js";
import { UserError } from "../../config/index.js";
import { stateDbPath, withStateDb } from "../../state/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

export interface PairingOptions {
  channel?: string;
  account?: string;
  json?: boolean;
}

/** `pairing list`: pending codes with the time left, then approved senders. */
export async function listPairing(ctx: CliContext, opts: PairingOptions): Promise<void> {
  const stateDir = ctx.paths().stateDir;
  const now = Date.now();
  // Listing never creates the database.
  const { pending, approved } = existsSync(stateDbPath(stateDir))
    ? withStateDb(stateDir, (db) => createPairingStore(db).list({ ...(opts.channel !== undefined ? { channel: opts.channel } : {}), now }))
    : { pending: [] as PendingPairing[], approved: [] as ApprovedSender[] };
  if (opts.json) {
    writeJson(ctx.stdout, {
      pending: pending.map((p) => ({
        channel: p.channel,
        accountId: p.accountId,
        code: p.code,
        senderId: p.senderId,
        senderName: p.senderName ?? null,
        createdAt: iso(p.createdAt),
        expiresAt: iso(p.expiresAt),
        remainingSeconds: Math.floor(p.remainingMs / 1000),
      })),
      approved: approved.map((a) => ({
        channel: a.channel,
        accountId: a.accountId,
        senderId: a.senderId,
        senderName: a.senderName ?? null,
        approvedAt: iso(a.approvedAt),
        code: a.code ?? null,
      })),
    });
    return;
  }
  const scope = opts.channel !== undefined ? ` on ${opts.channel.trim().toLowerCase()}` : "";
  if (pending.length === 0) {
    writeLine(ctx.stdout, `No pending pairing codes${scope}.`);
  } else {
    writeLine(ctx.stdout, `Pending pairing codes${scope} (approve with \`openclaw pairing approve <channel> <code>\`):`);
    ctx.stdout.write(
      formatTable(
        ["CHANNEL", "ACCOUNT", "CODE", "SENDER", "NAME", "EXPIRES IN"],
        pending.map((p) => [p.channel, p.accountId, p.code, p.senderId, p.senderName ?? "", duration(p.remainingMs)]),
      ),
    );
  }
  writeLine(ctx.stdout);
  if (approved.length === 0) {
    writeLine(ctx.stdout, `No approved senders${scope}.`);
  } else {
    writeLine(ctx.stdout, `Approved senders${scope} (revoke with \`openclaw pairing revoke <channel> <senderId>\`):`);
    ctx.stdout.write(
      formatTable(
        ["CHANNEL", "ACCOUNT", "SENDER", "NAME", "APPROVED"],
        approved.map((a) => [a.channel, a.accountId, a.senderId, a.senderName ?? "", iso(a.approvedAt)]),
      ),
    );
  }
}

/** `pairing approve <channel> <code>`: prints who was approved. */
export async function approvePairing(ctx: CliContext, channel: string, code: string, opts: PairingOptions): Promise<void> {
  const sender = withStateDb(ctx.paths().stateDir, (db) =>
    createPairingStore(db).approve(channel, code, opts.account !== undefined ? { accountId: opts.account } : {}),
  );
  writeLine(
    ctx.stdout,
    `Approved ${who(sender)} on ${sender.channel} (account ${sender.accountId}). They can message the agent now; ` +
      `undo with \`openclaw pairing revoke ${sender.channel} ${sender.senderId}\`.`,
  );
}

/** `pairing revoke <channel> <senderId>`: removes the approval on every (or one) account. */
export async function revokePairing(ctx: CliContext, channel: string, senderId: string, opts: PairingOptions): Promise<void> {
  const ch = channel.trim().toLowerCase();
  const removed = existsSync(stateDbPath(ctx.paths().stateDir))
    ? withStateDb(ctx.paths().stateDir, (db) =>
        createPairingStore(db).revoke(ch, senderId, opts.account !== undefined ? { accountId: opts.account } : {}),
      )
    : [];
  if (removed.length === 0) {
    throw new UserError(
      `No approved sender "${senderId}" on ${ch}${opts.account !== undefined ? ` (account ${opts.account})` : ""}. ` +
        "Run `openclaw pairing list` to see the approved senders and their ids.",
    );
  }
  const accounts = removed.map((r) => r.accountId).join(", ");
  writeLine(ctx.stdout, `Revoked ${who(removed[0]!)} on ${ch} (account ${accounts}). They need a new pairing code to message the agent.`);
}

function who(s: { senderId: string; senderName?: string }): string {
  return s.senderName ? `${s.senderName} (${s.senderId})` : s.senderId;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Minutes left, rounded up ("60m" for a fresh code, "1m" in its last minute). */
function duration(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 60_000))}m`;
}

function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n") + "\n";
}
