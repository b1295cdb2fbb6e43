// Recognising a damaged SQLite file, and the error that tells the user which file and what to do.
// A leaf module: the state and session stores import it to turn SQLite's bare "database disk
// image is malformed" into a message that names the file.
import { UserError } from "../config/index.js";

/**
 * True for SQLite's "this file is damaged" errors: `SQLITE_CORRUPT` (and its extended codes) and
 * `SQLITE_NOTADB` ("file is not a database"). Busy, locked and I/O errors are not corruption.
 */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** One damaged database file, as the error and doctor describe it. */
export interface DamagedDatabase {
  file: string;
  /** What SQLite said (`quick_check` output or the error message). */
  detail: string;
  /** What the file is, for people: "the state database", "the session database of agent main". */
  what: string;
  /** What a fresh, empty file loses. */
  loses: string;
  /** The newest backup that passed `quick_check`, when one exists. */
  newestBackup?: string;
  /** Where backups are kept (`<stateDir>/backups`). */
  backupsDir: string;
}

/** The fix for one damaged file, as lines of text (restore the backup, or move the file aside). */
export function describeDamage(d: DamagedDatabase): string {
  const restore = d.newestBackup
    ? `Restore the newest good backup (${d.newestBackup}): run \`openclaw doctor --fix\`, which moves the damaged file aside and copies the backup in.`
    : `No backup of it is in ${d.backupsDir}. \`openclaw doctor --fix\` moves the damaged file aside.`;
  return [
    `${d.what} ${d.file} is damaged (${d.detail}).`,
    `  ${restore}`,
    `  Or move it aside yourself: mv ${d.file} ${d.file}.corrupt (and its -wal and -shm files, if any); the gateway then starts with an empty one (${d.loses} are lost).`,
  ].join("\n");
}

/** The same advice in one line, for the gateway's one-line-per-event log. */
export function describeDamageInOneLine(d: DamagedDatabase): string {
  const fix = d.newestBackup
    ? `stop the gateway and run \`openclaw doctor --fix\` to restore the newest good backup (${d.newestBackup})`
    : `stop the gateway and run \`openclaw doctor --fix\` to move it aside (no backup of it is in ${d.backupsDir}; ${d.loses} are lost)`;
  return `${d.what.toLowerCase()} ${d.file} is damaged (${d.detail}); ${fix}`;
}

/**
 * A database file SQLite reports as damaged. A UserError: the CLI prints the message (which names
 * every damaged file and its fix) without a stack trace and exits 1. `lead` is a first line
 * ("The gateway does not start: …"); `oneLine` writes the advice for a log line instead.
 */
export class DatabaseCorruptError extends UserError {
  constructor(
    readonly damaged: readonly DamagedDatabase[],
    options: { lead?: string; oneLine?: boolean } = {},
  ) {
    super(
      options.oneLine
        ? damaged.map(describeDamageInOneLine).join("; ")
        : [...(options.lead ? [options.lead] : []), ...damaged.map(describeDamage)].join("\n"),
    );
    this.name = "DatabaseCorruptError";
  }
}
