// Imports what this openclaw supports from a reference state database (`state/openclaw.sqlite`,
// user_version 18 in 2026.9.6): the pairing allowlists and the pending pairing requests.
import type Database from "better-sqlite3";
import { createPairingStore, PAIRING_CODE_TTL_MS } from "../../access/index.js";
import type { StateDb } from "../../state/index.js";
import { hasTable } from "./source.js";

/** What importing a reference state database did. */
export interface StateImport {
  approved: number;
  pending: number;
  /** Rows read but not imported, one line each (expired codes, duplicates). */
  skipped: string[];
  /** The tables read. */
  tables: Set<string>;
  /** Names of the cron jobs the source holds (listed as not imported). */
  cronJobs: string[];
}

interface AllowRow {
  channel_key: string;
  account_id: string;
  entry: string;
  updated_at: number;
}

interface RequestRow {
  channel_key: string;
  account_id: string;
  request_id: string;
  code: string;
  created_at: string;
  meta_json: string | null;
}

function senderName(metaJson: string | null): string | undefined {
  if (metaJson === null) return undefined;
  try {
    const meta = JSON.parse(metaJson) as { firstName?: unknown; username?: unknown; name?: unknown };
    for (const v of [meta.name, meta.firstName, meta.username]) if (typeof v === "string" && v.trim() !== "") return v;
  } catch {
    // no name then
  }
  return undefined;
}

/**
 * Copies the reference's pairing allowlists (`channel_pairing_allow_entries`) into the approved
 * senders and its pending requests (`channel_pairing_requests`) into the pending codes of `target`
 * (this openclaw's state database). A request keeps its code and the time it was made; it expires
 * an hour after that, as in the reference, and one already expired is listed, not imported (the
 * sender gets a new code at their next message). Cron jobs are only read for their names.
 */
export function importReferenceState(source: Database.Database, target: StateDb, now: number = Date.now()): StateImport {
  const result: StateImport = { approved: 0, pending: 0, skipped: [], tables: new Set(), cronJobs: [] };
  const pairing = createPairingStore(target);
  if (hasTable(source, "channel_pairing_allow_entries")) {
    result.tables.add("channel_pairing_allow_entries");
    const rows = source
      .prepare<[], AllowRow>(
        "SELECT channel_key, account_id, entry, updated_at FROM channel_pairing_allow_entries ORDER BY channel_key, account_id, sort_order, entry",
      )
      .all();
    for (const row of rows) {
      const added = pairing.addApproved({
        channel: row.channel_key,
        accountId: row.account_id,
        senderId: row.entry,
        approvedAt: row.updated_at,
      });
      if (added) result.approved++;
      else result.skipped.push(`allowlist entry ${row.entry} of ${row.channel_key} (account ${row.account_id}): already approved`);
    }
  }
  if (hasTable(source, "channel_pairing_requests")) {
    result.tables.add("channel_pairing_requests");
    const rows = source
      .prepare<[], RequestRow>(
        "SELECT channel_key, account_id, request_id, code, created_at, meta_json FROM channel_pairing_requests ORDER BY channel_key, created_at",
      )
      .all();
    for (const row of rows) {
      const createdAt = Date.parse(row.created_at);
      const expiresAt = createdAt + PAIRING_CODE_TTL_MS;
      const what = `pairing request ${row.code} of ${row.request_id} on ${row.channel_key} (account ${row.account_id})`;
      if (!Number.isFinite(createdAt) || expiresAt <= now) {
        result.skipped.push(`${what}: expired (codes last 1 hour); the sender gets a new code at their next message`);
        continue;
      }
      const name = senderName(row.meta_json);
      const added = pairing.addPending(
        {
          channel: row.channel_key,
          accountId: row.account_id,
          code: row.code,
          senderId: row.request_id,
          ...(name !== undefined ? { senderName: name } : {}),
          createdAt,
          expiresAt,
        },
        now,
      );
      if (added) result.pending++;
      else result.skipped.push(`${what}: the code or the sender is already pending`);
    }
  }
  if (hasTable(source, "cron_jobs")) {
    result.cronJobs = source
      .prepare<[], { name: string }>("SELECT name FROM cron_jobs ORDER BY sort_order, name")
      .all()
      .map((r) => r.name);
  }
  return result;
}
