import { parseConfigPath, setAtPath, unsetAtPath } from "../../config/index.js";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * RFC 7396 JSON merge patch: objects merge key by key, `null` removes a key, anything else
 * (arrays included) replaces the value. Returns a new value; `target` is not changed.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

/** One `path = value` change; `value: null` (or omitted) removes the key. */
export interface PathChange {
  /** A config path as `openclaw config set` takes it, e.g. `channels.telegram.allowFrom` or `agents.list[0].model`. */
  path: string;
  value?: unknown;
}

/** `raw` with every change applied in order (a copy). Throws when a path does not parse. */
export function applyPathChanges(raw: Record<string, unknown>, changes: readonly PathChange[]): Record<string, unknown> {
  let next = structuredClone(raw);
  for (const change of changes) {
    const segments = parseConfigPath(change.path);
    if (change.value === undefined || change.value === null) unsetAtPath(next, segments);
    else next = setAtPath(next, segments, change.value);
  }
  return next;
}
