// Folder listings read every turn (the workspace for its bootstrap files, `memory/` for the daily
// notes), reused while the folder's stamp stays. A missing folder is remembered by its parent's
// stamp (creating the folder changes the parent's mtime), so neither case costs more than one
// successful stat per call: a failing stat costs an error object with a stack every time. The
// stats are synchronous: a stat of a cached folder takes microseconds, and a promise stat costs
// the main thread several times that in request, promise and callback (it ran every turn).
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { type FileStamp, rememberBounded, sameStamp, stampOf } from "./file-stamp.js";

const listings = new Map<string, FileStamp & { entries: ReadonlySet<string> }>();
/** Missing folders, with their parent's stamp when that was seen. */
const missing = new Map<string, FileStamp>();
const EMPTY: ReadonlySet<string> = new Set();

const statOf = (file: string): FileStamp | undefined => {
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
    if (parent && sameStamp(gone, parent)) return EMPTY;
    missing.delete(dir);
  }
  const stat = statOf(dir);
  if (!stat) {
    rememberMissing(dir);
    return EMPTY;
  }
  const hit = listings.get(dir);
  if (hit && sameStamp(hit, stat)) return hit.entries;
  try {
    const entries = new Set(await readdir(dir));
    rememberBounded(listings, dir, { ...stampOf(stat), entries });
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
  rememberBounded(missing, dir, stampOf(parent));
}
