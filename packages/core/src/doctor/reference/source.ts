// Reading a database the reference OpenClaw wrote, after doctor moved it aside: which tables hold
// rows, and the rows of the ones imported.
import { existsSync, renameSync } from "node:fs";
import Database from "better-sqlite3";

/** The name a reference database is kept under: `<file>.reference-<release>` (`-<n>` added when taken). */
export function asideName(file: string, appVersion: string): string {
  const base = `${file}.reference-${appVersion}`;
  let name = base;
  for (let n = 2; existsSync(name); n++) name = `${base}-${n}`;
  return name;
}

/**
 * Moves the database at `file` whole to `aside`, with its `-wal` and `-shm` files (the WAL may
 * hold its last transactions), so that nothing of it is lost and this openclaw can write its own
 * database at `file`.
 */
export function moveAside(file: string, aside: string): void {
  renameSync(file, aside);
  for (const suffix of ["-wal", "-shm"]) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
}

/** Puts a database moved aside with {@link moveAside} back (when an import failed). */
export function moveBack(aside: string, file: string): void {
  for (const suffix of ["-wal", "-shm"]) {
    if (existsSync(aside + suffix)) renameSync(aside + suffix, file + suffix);
  }
  renameSync(aside, file);
}

/** Opens a reference database read-only. */
export function openSource(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** Row counts of the tables that hold rows (FTS shadow tables and sqlite_ internals left out), by name. */
export function nonEmptyTables(db: Database.Database): Map<string, number> {
  const names = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
    )
    .all()
    .map((r) => r.name)
    .filter((name) => !/_fts(_\w+)?$|_fts_(data|idx|content|docsize|config)$/.test(name));
  const counts = new Map<string, number>();
  for (const name of names) {
    const n = (db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n;
    if (n > 0) counts.set(name, n);
  }
  return counts;
}

/** Does `db` have table `name`? */
export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * One line per table with rows that the import did not read: `why` names why for a known table,
 * `fallback` for the rest. Empty when every table with rows was imported.
 */
export function notImportedLines(
  counts: ReadonlyMap<string, number>,
  imported: ReadonlySet<string>,
  why: Readonly<Record<string, string>>,
  fallback: string,
): string[] {
  const lines: string[] = [];
  for (const [name, n] of counts) {
    if (imported.has(name)) continue;
    lines.push(`not imported: ${name} (${n} row${n === 1 ? "" : "s"}): ${why[name] ?? fallback}`);
  }
  return lines;
}
