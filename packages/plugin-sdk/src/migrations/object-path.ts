/** Plain-object helpers shared by migration rules. Paths are arrays of keys. */

export type ConfigObject = Record<string, unknown>;

/** True for a non-null object that is not an array (a JSON object). */
export function isPlainObject(value: unknown): value is ConfigObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SIMPLE_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `["channels","telegram","accounts","a.b"]` -> `channels.telegram.accounts["a.b"]`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (SIMPLE_KEY.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** The value at `path` under `root`, or undefined when any step is missing or not an object. */
export function getPath(root: unknown, path: readonly string[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/** True when the last key of `path` exists (even with an undefined value) under `root`. */
export function hasPath(root: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  const parent = getPath(root, path.slice(0, -1));
  return isPlainObject(parent) && Object.hasOwn(parent, path[path.length - 1]!);
}

/** Sets a value, creating intermediate objects. Returns false when a non-object is in the way. */
export function setPath(root: ConfigObject, path: readonly string[], value: unknown): boolean {
  let cur: ConfigObject = root;
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg];
    if (next === undefined) {
      const created: ConfigObject = {};
      cur[seg] = created;
      cur = created;
    } else if (isPlainObject(next)) {
      cur = next;
    } else {
      return false;
    }
  }
  cur[path[path.length - 1]!] = value;
  return true;
}

/** Removes the key at `path`; returns false when it was not there. */
export function deletePath(root: ConfigObject, path: readonly string[]): boolean {
  const parent = getPath(root, path.slice(0, -1));
  if (!isPlainObject(parent)) return false;
  const key = path[path.length - 1]!;
  if (!Object.hasOwn(parent, key)) return false;
  delete parent[key];
  return true;
}
