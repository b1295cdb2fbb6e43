// What the per-turn caches of the workspace (folder listings, bootstrap files) keep of a file or
// folder to tell, with one stat, whether what they hold is still what is on disk.

/** Identity (device, inode), size and change times (nanoseconds) of a file or folder. */
export interface FileStamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** The stamp of bigint stats (a copy: the stats object is not kept). */
export function stampOf(s: FileStamp): FileStamp {
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Entries a workspace cache keeps (paths seen); past it the cache starts again empty. */
const MAX_CACHED = 512;

/** Sets `key` in `cache`, emptying the cache first when it is full. */
export function rememberBounded<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, value);
}
