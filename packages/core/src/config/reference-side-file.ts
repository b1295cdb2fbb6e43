// Keys of a config written by the reference OpenClaw that this openclaw does not support: doctor
// moves them out of openclaw.json into a side file next to it, so the config validates and
// nothing the user wrote is lost.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { formatPath, isPlainObject, type ConfigObject } from "@openclaw/plugin-sdk/config";
import { writeConfigFile } from "./io/write.js";

/** The side file's name; it sits next to openclaw.json. */
export const REFERENCE_SIDE_FILE = "openclaw.reference-only.json";

/** `<folder of the config>/openclaw.reference-only.json`. */
export function referenceSideFilePath(configPath: string): string {
  return path.join(path.dirname(configPath), REFERENCE_SIDE_FILE);
}

/**
 * True when the config as written shows it comes from the reference OpenClaw: its bookkeeping
 * (`meta`, `wizard`) or `gateway.mode`, which the reference requires and writes in every config.
 */
export function looksWrittenByReference(raw: unknown): boolean {
  if (!isPlainObject(raw)) return false;
  return raw.meta !== undefined || raw.wizard !== undefined || (isPlainObject(raw.gateway) && raw.gateway.mode !== undefined);
}

/** One key moved out of the config. */
export interface MovedKey {
  /** Dotted path, e.g. `models.providers.fake.models[0].cost`. */
  path: string;
  value: unknown;
}

/**
 * Removes each of `paths` (unknown keys found by validation) from `config` in place and returns
 * what was removed. A path that is not in `config` (it comes from an `$include`d file) is left
 * alone and not returned.
 */
export function takeKeys(config: ConfigObject, paths: readonly (readonly PropertyKey[])[]): MovedKey[] {
  const moved: MovedKey[] = [];
  for (const p of paths) {
    let parent: unknown = config;
    for (const seg of p.slice(0, -1)) {
      parent = parent !== null && typeof parent === "object" ? (parent as Record<PropertyKey, unknown>)[seg] : undefined;
    }
    const last = p[p.length - 1];
    if (!isPlainObject(parent) || typeof last !== "string" || !Object.hasOwn(parent, last)) continue;
    moved.push({ path: formatPath(p as (string | number)[]), value: parent[last] });
    delete parent[last];
  }
  return moved;
}

/**
 * Adds `moved` to the side file (an object of dotted path -> value, with a `_note` saying what it
 * is), keeping what an earlier run put there; a path moved again replaces its old value.
 */
export async function writeReferenceSideFile(file: string, moved: readonly MovedKey[]): Promise<void> {
  let existing: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (isPlainObject(parsed) && isPlainObject(parsed.keys)) existing = parsed.keys;
    } catch {
      // An unreadable side file is replaced; writeConfigFile keeps its previous content as .bak.
    }
  }
  const keys = { ...existing };
  for (const m of moved) keys[m.path] = m.value;
  const body = {
    _note:
      "Settings of the reference OpenClaw that this openclaw does not support, moved out of openclaw.json by `openclaw doctor --fix`. Nothing reads this file; it keeps them so nothing is lost.",
    keys,
  };
  await writeConfigFile(file, body);
}
