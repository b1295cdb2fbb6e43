// Folder listings read every turn (the workspace for its bootstrap files, `memory/` for the daily
// notes), reused while the folder's stamp stays. A missing folder is remembered by its parent's
// stamp (creating the folder changes the parent's mtime), so neither case costs more than one
// successful stat per call: a failing stat costs an error object with a stack every time. The
// stats are synchronous: a stat of a cached folder takes microseconds, and a promise stat costs
// the main thread several times that in request, promise and callback (it ran every turn).
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

interface Stamp {
  dev: bigint;
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

const stampOf = (s: Stamp): Stamp => ({ dev: s.dev, ino: s.ino, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs });
const same = (a: Stamp, b: Stamp): boolean => a.ino === b.ino && a.dev === b.dev && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/** Bounds both caches (folders seen); past it they start again empty. */
const MAX_CACHED = 512;
const listings = new Map<string, Stamp & { entries: ReadonlySet<string> }>();
/** Missing folders, with their parent's stamp when that was seen. */
const missing = new Map<string, Stamp>();
const EMPTY: ReadonlySet<string> = new Set();

const statOf = (file: string): Stamp | undefined => {
  try {
    return statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, EACCES, ...: as missing
  }
};

/**
 * The names in `dir` (empty when it is missing or not a folder), read again only when the
 * folder's identity, mtime or ctime changed. The set is shared: do not change it.
 */
export async function cachedListing(dir: string): Promise<ReadonlySet<string>> {
  const gone = missing.get(dir);
  if (gone) {
    const parent = statOf(path.dirname(dir));
    if (parent && same(gone, parent)) return EMPTY;
    missing.delete(dir);
  }
  const stat = statOf(dir);
  if (!stat) {
    rememberMissing(dir);
    return EMPTY;
  }
  const hit = listings.get(dir);
  if (hit && same(hit, stat)) return hit.entries;
  try {
    const entries = new Set(await readdir(dir));
    if (listings.size >= MAX_CACHED) listings.clear();
    listings.set(dir, { ...stampOf(stat), entries });
    return entries;
  } catch {
    return EMPTY;
  }
}

function rememberMissing(dir: string): void {
  // The parent's stamp from after the failed stat, and the folder still missing after it: a
  // folder made in between is then either seen here or changes the stamp kept.
  const parent = statOf(path.dirname(dir));
  if (!parent || statOf(dir)) return;
  if (missing.size >= MAX_CACHED) missing.clear();
  missing.set(dir, stampOf(parent));
}
