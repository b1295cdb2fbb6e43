// Pairing codes and approved senders in the shared state database (migration 2, "pairing").
// The gateway issues codes and checks approvals on every DM; `openclaw pairing approve|revoke`
// writes the same tables from another process. Every call is one short transaction, and nothing
// is cached, so an approval takes effect at the sender's next message without a restart.
import { UserError } from "../config/index.js";
import type { StateDb } from "../state/index.js";
import { generatePairingCode, normalizePairingCode } from "./codes.js";
import { normalizeSenderId } from "./ids.js";

/** A pairing code is valid for one hour after it was issued. */
export const PAIRING_CODE_TTL_MS = 60 * 60 * 1000;
/** At most this many codes are pending per channel account; further strangers are dropped. */
export const PAIRING_MAX_PENDING = 3;

/** A code waiting for `openclaw pairing approve`. Times are ms since the epoch. */
export interface PendingPairing {
  channel: string;
  accountId: string;
  code: string;
  senderId: string;
  senderName?: string;
  createdAt: number;
  expiresAt: number;
  /** Time left at the moment of listing. */
  remainingMs: number;
}

/** A sender an owner approved; they pass `dmPolicy: "pairing"` on this channel account. */
export interface ApprovedSender {
  channel: string;
  accountId: string;
  senderId: string;
  senderName?: string;
  approvedAt: number;
  /** The code that was approved (absent for rows added another way). */
  code?: string;
}

/** Who asks for a code. */
export interface PairingRequest {
  channel: string;
  accountId: string;
  senderId: string;
  senderName?: string;
}

/** The result of {@link PairingStore.issue}. */
export type IssueResult =
  | { ok: true; code: string; isNew: boolean; expiresAt: number }
  | { ok: false; reason: "too many pending"; pending: number };

/** The gate's view of the store: what `decideAccess` needs. */
export interface PairingGate {
  isApproved(channel: string, accountId: string, senderId: string): boolean;
  issue(request: PairingRequest, now?: number): IssueResult;
}

interface PendingRow {
  channel: string;
  account_id: string;
  code: string;
  sender_id: string;
  sender_name: string | null;
  created_at: number;
  expires_at: number;
}

interface ApprovedRow {
  channel: string;
  account_id: string;
  sender_id: string;
  sender_name: string | null;
  approved_at: number;
  code: string | null;
}

const channelKey = (channel: string): string => channel.trim().toLowerCase();
const accountKey = (accountId: string | undefined): string => (accountId ?? "").trim().toLowerCase() || "default";

function toPending(row: PendingRow, now: number): PendingPairing {
  return {
    channel: row.channel,
    accountId: row.account_id,
    code: row.code,
    senderId: row.sender_id,
    ...(row.sender_name !== null ? { senderName: row.sender_name } : {}),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    remainingMs: Math.max(0, row.expires_at - now),
  };
}

function toApproved(row: ApprovedRow): ApprovedSender {
  return {
    channel: row.channel,
    accountId: row.account_id,
    senderId: row.sender_id,
    ...(row.sender_name !== null ? { senderName: row.sender_name } : {}),
    approvedAt: row.approved_at,
    ...(row.code !== null ? { code: row.code } : {}),
  };
}

function describeSender(row: { sender_id: string; sender_name: string | null }): string {
  return row.sender_name ? `${row.sender_name} (${row.sender_id})` : row.sender_id;
}

/** A sender id as stored: without a `<channel>:` prefix, trimmed, its case kept. */
const storedSenderId = (channel: string, id: string): string => normalizeSenderId({ channel, rules: { sender: (s) => s } }, id);

/**
 * Pairing codes and approved senders. Channels and account ids are compared lowercased (an
 * empty account id means `"default"`). Sender ids are kept as the channel spells them (the gate
 * passes them in the channel's canonical form, so `pairing list` shows a QQ openid upper-case)
 * and compared without case, whatever a person types to `pairing revoke`. Not safe to share across threads; one instance per open database.
 */
export class PairingStore implements PairingGate {
  private readonly stmt;

  constructor(private readonly db: StateDb) {
    this.stmt = {
      purgeExpired: db.prepare("DELETE FROM pairing_pending WHERE channel = ? AND account_id = ? AND expires_at <= ?"),
      pendingOfSender: db.prepare<[string, string, string], PendingRow>(
        "SELECT * FROM pairing_pending WHERE channel = ? AND account_id = ? AND sender_id = ? COLLATE NOCASE",
      ),
      countPending: db.prepare<[string, string], { n: number }>(
        "SELECT count(*) AS n FROM pairing_pending WHERE channel = ? AND account_id = ?",
      ),
      codeTaken: db.prepare<[string, string], { one: number }>("SELECT 1 AS one FROM pairing_pending WHERE channel = ? AND code = ?"),
      insertPending: db.prepare(
        "INSERT INTO pairing_pending (channel, account_id, code, sender_id, sender_name, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ),
      pendingByCode: db.prepare<[string], PendingRow>("SELECT * FROM pairing_pending WHERE code = ? ORDER BY channel"),
      deletePending: db.prepare("DELETE FROM pairing_pending WHERE channel = ? AND code = ?"),
      upsertApproved: db.prepare(
        `INSERT INTO pairing_approved (channel, account_id, sender_id, sender_name, approved_at, code) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (channel, account_id, sender_id) DO UPDATE SET sender_name = excluded.sender_name,
           approved_at = excluded.approved_at, code = excluded.code`,
      ),
      isApproved: db.prepare<[string, string, string], { one: number }>(
        "SELECT 1 AS one FROM pairing_approved WHERE channel = ? AND account_id = ? AND sender_id = ? COLLATE NOCASE",
      ),
      listPending: db.prepare<[number], PendingRow>(
        "SELECT * FROM pairing_pending WHERE expires_at > ? ORDER BY channel, account_id, created_at",
      ),
      listApproved: db.prepare<[], ApprovedRow>("SELECT * FROM pairing_approved ORDER BY channel, account_id, approved_at"),
      approvedOfSender: db.prepare<[string, string], ApprovedRow>(
        "SELECT * FROM pairing_approved WHERE channel = ? AND sender_id = ? COLLATE NOCASE ORDER BY account_id",
      ),
      deleteApproved: db.prepare("DELETE FROM pairing_approved WHERE channel = ? AND account_id = ? AND sender_id = ?"),
    };
  }

  /**
   * Gives `senderId` a pairing code. A sender that already holds an unexpired code gets the same
   * one back (`isNew: false`); otherwise a new crypto-random code valid for
   * {@link PAIRING_CODE_TTL_MS}, unless {@link PAIRING_MAX_PENDING} codes are already pending on
   * the account (`ok: false`). Expired codes of the account are deleted first.
   */
  issue(request: PairingRequest, now: number = Date.now()): IssueResult {
    const channel = channelKey(request.channel);
    const accountId = accountKey(request.accountId);
    const senderId = storedSenderId(channel, request.senderId);
    const run = this.db.transaction((): IssueResult => {
      this.stmt.purgeExpired.run(channel, accountId, now);
      const existing = this.stmt.pendingOfSender.get(channel, accountId, senderId);
      if (existing) return { ok: true, code: existing.code, isNew: false, expiresAt: existing.expires_at };
      const pending = this.stmt.countPending.get(channel, accountId)?.n ?? 0;
      if (pending >= PAIRING_MAX_PENDING) return { ok: false, reason: "too many pending", pending };
      let code = generatePairingCode();
      while (this.stmt.codeTaken.get(channel, code)) code = generatePairingCode();
      const expiresAt = now + PAIRING_CODE_TTL_MS;
      const name = request.senderName?.trim() || null;
      this.stmt.insertPending.run(channel, accountId, code, senderId, name, now, expiresAt);
      return { ok: true, code, isNew: true, expiresAt };
    });
    return run.immediate();
  }

  /**
   * Approves a pending code: the sender joins the approved list of the code's channel account
   * and the code is used up. The code is matched case-insensitively (spaces and dashes ignored);
   * `accountId` restricts the match to one account. Throws a UserError that says what to do when
   * the code is unknown, belongs to another channel or account, or has expired (an expired code
   * is deleted).
   */
  approve(channel: string, code: string, options: { accountId?: string; now?: number } = {}): ApprovedSender {
    const ch = channelKey(channel);
    const wanted = normalizePairingCode(code);
    const now = options.now ?? Date.now();
    // Errors are returned, not thrown, from the transaction: an expired code is deleted, and a
    // throw would roll that back.
    const run = this.db.transaction((): { ok: true; sender: ApprovedSender } | { ok: false; message: string } => {
      const rows = this.stmt.pendingByCode.all(wanted);
      const row = rows.find((r) => r.channel === ch);
      if (!row) {
        const elsewhere = rows.find((r) => r.expires_at > now);
        return {
          ok: false,
          message: elsewhere
            ? `Pairing code ${wanted} belongs to channel "${elsewhere.channel}", not "${ch}". Run \`openclaw pairing approve ${elsewhere.channel} ${wanted}\`.`
            : `No pending pairing code ${wanted} on channel "${ch}". Codes expire 1 hour after they are issued; run ` +
              "`openclaw pairing list` to see the pending ones, or ask the sender to message the bot again for a new code.",
        };
      }
      if (options.accountId !== undefined && row.account_id !== accountKey(options.accountId)) {
        return {
          ok: false,
          message:
            `Pairing code ${wanted} on ${ch} was issued by account "${row.account_id}", not "${accountKey(options.accountId)}". ` +
            `Run \`openclaw pairing approve ${ch} ${wanted} --account ${row.account_id}\`, or leave out --account.`,
        };
      }
      this.stmt.deletePending.run(ch, row.code);
      if (row.expires_at <= now) {
        return {
          ok: false,
          message:
            `Pairing code ${wanted} on ${ch} expired at ${new Date(row.expires_at).toISOString()} (codes last 1 hour). ` +
            `Ask ${describeSender(row)} to message the bot again for a new code, then approve that one.`,
        };
      }
      this.stmt.upsertApproved.run(ch, row.account_id, row.sender_id, row.sender_name, now, row.code);
      return { ok: true, sender: toApproved({ ...row, approved_at: now }) };
    });
    const result = run.immediate();
    if (!result.ok) throw new UserError(result.message);
    return result.sender;
  }

  /**
   * Refuses a pending code: it is deleted and its sender stays unapproved (a new message from
   * them gets a new code). Matched like {@link approve}. Returns the refused request; throws a
   * UserError that says what to do when no such code is pending on the channel.
   */
  reject(channel: string, code: string, options: { now?: number } = {}): PendingPairing {
    const ch = channelKey(channel);
    const wanted = normalizePairingCode(code);
    const now = options.now ?? Date.now();
    const run = this.db.transaction((): PendingPairing | undefined => {
      const row = this.stmt.pendingByCode.all(wanted).find((r) => r.channel === ch);
      if (!row) return undefined;
      this.stmt.deletePending.run(ch, row.code);
      return toPending(row, now);
    });
    const refused = run.immediate();
    if (!refused) {
      throw new UserError(`No pending pairing code ${wanted} on channel "${ch}"; run \`openclaw pairing list\` to see the pending ones.`);
    }
    return refused;
  }

  /** Pending codes that have not expired (with the time left) and approved senders, optionally of one channel. */
  list(options: { channel?: string; now?: number } = {}): { pending: PendingPairing[]; approved: ApprovedSender[] } {
    const now = options.now ?? Date.now();
    const only = options.channel === undefined ? undefined : channelKey(options.channel);
    const keep = (row: { channel: string }): boolean => only === undefined || row.channel === only;
    return {
      pending: this.stmt.listPending
        .all(now)
        .filter(keep)
        .map((r) => toPending(r, now)),
      approved: this.stmt.listApproved.all().filter(keep).map(toApproved),
    };
  }

  /**
   * Adds an approved sender as imported from elsewhere (no code); an existing approval is kept.
   * Returns false when the sender was already approved on that account.
   */
  addApproved(sender: { channel: string; accountId: string; senderId: string; senderName?: string; approvedAt: number }): boolean {
    const ch = channelKey(sender.channel);
    const account = accountKey(sender.accountId);
    const id = storedSenderId(ch, sender.senderId);
    if (id === "" || this.stmt.isApproved.get(ch, account, id)) return false;
    this.stmt.upsertApproved.run(ch, account, id, sender.senderName?.trim() || null, sender.approvedAt, null);
    return true;
  }

  /**
   * Adds a pending code as imported from elsewhere; false (nothing written) when the code is
   * taken on the channel, the sender already holds one on the account, or it has expired by `now`.
   */
  addPending(pending: Omit<PendingPairing, "remainingMs">, now: number = Date.now()): boolean {
    const ch = channelKey(pending.channel);
    const account = accountKey(pending.accountId);
    const id = storedSenderId(ch, pending.senderId);
    if (id === "" || pending.expiresAt <= now) return false;
    if (this.stmt.codeTaken.get(ch, pending.code) || this.stmt.pendingOfSender.get(ch, account, id)) return false;
    const name = pending.senderName?.trim() || null;
    this.stmt.insertPending.run(ch, account, pending.code, id, name, pending.createdAt, pending.expiresAt);
    return true;
  }

  /** True when the owner approved this sender on this channel account. */
  isApproved(channel: string, accountId: string, senderId: string): boolean {
    const ch = channelKey(channel);
    const id = storedSenderId(ch, senderId);
    return id !== "" && this.stmt.isApproved.get(ch, accountKey(accountId), id) !== undefined;
  }

  /**
   * Removes an approved sender (on every account of the channel, or only on `accountId`) and
   * returns the rows removed; `[]` when there was nothing to remove.
   */
  revoke(channel: string, senderId: string, options: { accountId?: string } = {}): ApprovedSender[] {
    const ch = channelKey(channel);
    const id = storedSenderId(ch, senderId);
    const run = this.db.transaction((): ApprovedSender[] => {
      const rows = this.stmt.approvedOfSender
        .all(ch, id)
        .filter((r) => options.accountId === undefined || r.account_id === accountKey(options.accountId));
      for (const r of rows) this.stmt.deleteApproved.run(ch, r.account_id, r.sender_id);
      return rows.map(toApproved);
    });
    return run.immediate();
  }
}

/** A {@link PairingStore} on an open state database (`openStateDb`). */
export function createPairingStore(db: StateDb): PairingStore {
  return new PairingStore(db);
}
