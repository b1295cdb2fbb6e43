import { deletePath, formatPath, getPath, isPlainObject, type ConfigObject } from "./object-path.js";
import type { LegacyFinding, LegacyKeyRule, MigrationOutcome } from "./types.js";

/** How a channel's retired flat streaming keys map onto its nested `streaming` object. */
export interface StreamingAliasSpec {
  /** Channel id: the rule works on `channels.<id>` and every `channels.<id>.accounts.<aid>`. */
  channelId: string;
  /**
   * Valid `streaming.mode` values (e.g. matrix adds `"quiet"`). Omit for a delivery-only channel
   * (no preview): its legacy mode keys are removed, since they have no meaning there.
   */
  modes?: readonly string[];
  /** Mode for `streaming: true` (default `"partial"`); `streaming: false` always means `"off"`. */
  trueMode?: string;
  /** Extra nested values set when `streaming: true` is migrated (qqbot: `{nativeTransport: true}`). */
  trueExtras?: Record<string, unknown>;
  /** Flat keys moved into the nested object; defaults to chunkMode, blockStreaming, blockStreamingCoalesce. */
  flatKeys?: readonly FlatKeyMove[];
  /** Keys inside `streaming` that were renamed (qqbot: `c2cStreamApi` -> `nativeTransport`). */
  nestedRenames?: readonly NestedRename[];
  /** Paths inside `streaming` that were never read: removed once the flat keys moved in. */
  droppedKeys?: readonly (readonly string[])[];
}

/** A retired flat key and its nested destination under `streaming`. */
export interface FlatKeyMove {
  /** The retired key at the channel (or account) root, e.g. `"chunkMode"`. */
  key: string;
  /** Its path under the same object, e.g. `["streaming", "chunkMode"]`. */
  to: readonly string[];
  /** What the legacy value must be to move as is; otherwise doctor reports it and leaves it. */
  expect?: ValueExpectation;
}

/** A key inside `streaming` that moved to another name (e.g. qqbot `c2cStreamApi` -> `nativeTransport`). */
export interface NestedRename {
  /** The old key inside `streaming`. */
  from: string;
  /** The new key inside `streaming`. */
  to: string;
  /** What the value must be to move as is; otherwise doctor reports it and leaves it. */
  expect?: ValueExpectation;
}

/** What a legacy value must look like to be moved: a boolean, an object, or a chunk mode. */
export type ValueExpectation = "boolean" | "object" | "chunkMode";

/** The error text when `value` does not meet `expect`; undefined when it does (or nothing is expected). */
export function expectationError(expect: ValueExpectation | undefined, value: unknown): string | undefined {
  switch (expect) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected true or false";
    case "object":
      return isPlainObject(value) ? undefined : "expected an object";
    case "chunkMode":
      return value === "length" || value === "newline" ? undefined : 'expected "length" or "newline"';
    default:
      return undefined;
  }
}

/** The flat keys every channel with block replies retired. */
export const STANDARD_FLAT_KEYS: readonly FlatKeyMove[] = [
  { key: "chunkMode", to: ["chunkMode"], expect: "chunkMode" },
  { key: "blockStreaming", to: ["block", "enabled"], expect: "boolean" },
  { key: "blockStreamingCoalesce", to: ["block", "coalesce"], expect: "object" },
];

/** Telegram's `draftChunk` -> `streaming.preview.chunk`. */
export const DRAFT_CHUNK_KEY: FlatKeyMove = { key: "draftChunk", to: ["preview", "chunk"], expect: "object" };

const own = (o: ConfigObject, k: string) => Object.hasOwn(o, k);
const show = (v: unknown) => JSON.stringify(v);

/** The entries a channel rule visits: the channel root, then each account. */
export function channelEntries(config: ConfigObject, channelId: string): { path: string[]; entry: ConfigObject }[] {
  const channels = config.channels;
  if (!isPlainObject(channels)) return [];
  const root = channels[channelId];
  if (!isPlainObject(root)) return [];
  const out = [{ path: ["channels", channelId], entry: root }];
  if (isPlainObject(root.accounts)) {
    for (const [id, account] of Object.entries(root.accounts)) {
      if (isPlainObject(account)) out.push({ path: ["channels", channelId, "accounts", id], entry: account });
    }
  }
  return out;
}

function normalizeMode(value: unknown, modes: readonly string[]): string | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  return modes.includes(v) ? v : undefined;
}

function detectEntry(entry: ConfigObject, path: string[], spec: StreamingAliasSpec): LegacyFinding[] {
  const p = (...k: string[]) => formatPath([...path, ...k]);
  const findings: LegacyFinding[] = [];
  const say = (key: string[], target: string, what = p(...key)) =>
    findings.push({
      path: [...path, ...key],
      message: `${what} is retired; run \`openclaw doctor --fix\` to move it to ${target}.`,
    });
  const s = entry.streaming;
  const scalarWhat = `${p("streaming")} as a ${typeof s} (${show(s)})`;
  if (spec.modes) {
    if (own(entry, "streamMode")) say(["streamMode"], p("streaming", "mode"));
    if (s !== undefined && !isPlainObject(s)) say(["streaming"], p("streaming", "mode"), scalarWhat);
  } else {
    // Delivery-only channel: a preview mode has no meaning there, so doctor drops these keys.
    const dropped = (key: string[], what: string) =>
      findings.push({
        path: [...path, ...key],
        message: `${what} is retired and has no effect (${spec.channelId} cannot show previews); run \`openclaw doctor --fix\` to remove it.`,
      });
    if (own(entry, "streamMode")) dropped(["streamMode"], p("streamMode"));
    if (s !== undefined && !isPlainObject(s)) dropped(["streaming"], scalarWhat);
  }
  for (const move of spec.flatKeys ?? STANDARD_FLAT_KEYS) {
    if (own(entry, move.key)) say([move.key], p("streaming", ...move.to));
  }
  if (isPlainObject(s)) {
    for (const r of spec.nestedRenames ?? []) {
      if (own(s, r.from)) say(["streaming", r.from], p("streaming", r.to));
    }
  }
  for (const key of spec.droppedKeys ?? []) {
    if (getPath(s, key) !== undefined) {
      findings.push({
        path: [...path, "streaming", ...key],
        message: `${p("streaming", ...key)} was never read and is retired; run \`openclaw doctor --fix\` to remove it.`,
      });
    }
  }
  return findings;
}

function migrateEntry(entry: ConfigObject, path: string[], spec: StreamingAliasSpec): MigrationOutcome {
  const p = (...k: string[]) => formatPath([...path, ...k]);
  const changes: string[] = [];
  const problems: string[] = [];
  const s = entry.streaming;
  const hasNestedMode = isPlainObject(s) && s.mode !== undefined;

  // 1. The preview mode: nested streaming.mode > string streaming > streamMode > boolean streaming.
  if (!spec.modes) {
    // Delivery-only channel: legacy mode keys have no meaning; drop them (and say so).
    if (own(entry, "streamMode")) {
      changes.push(`${p("streamMode")} removed (${spec.channelId} has no preview mode)`);
      delete entry.streamMode;
    }
    if (s !== undefined && !isPlainObject(s)) {
      if (typeof s === "boolean" || typeof s === "string") {
        changes.push(`${p("streaming")}: ${show(s)} removed (${spec.channelId} has no preview mode)`);
        delete entry.streaming;
      } else {
        problems.push(`${p("streaming")} has the invalid value ${show(s)}; expected an object such as { block: { enabled: true } }.`);
      }
    }
  } else if (hasNestedMode) {
    if (own(entry, "streamMode")) {
      changes.push(`${p("streamMode")} removed (${p("streaming", "mode")} is already set)`);
      delete entry.streamMode;
    }
  } else {
    const modes = spec.modes;
    const candidates: { key: string; value: unknown }[] = [];
    if (typeof s === "string") candidates.push({ key: "streaming", value: s });
    if (own(entry, "streamMode")) candidates.push({ key: "streamMode", value: entry.streamMode });
    let decided = true;
    let mode: string | undefined;
    let source = "";
    let extras: Record<string, unknown> = {};
    const first = candidates[0];
    if (first) {
      mode = normalizeMode(first.value, modes);
      source = first.key;
      if (mode === undefined) {
        decided = false;
        problems.push(
          `${p(first.key)} has the invalid value ${show(first.value)}; expected one of ${modes.join(", ")}. ` +
            `Set ${p("streaming", "mode")} yourself and remove ${p(first.key)}.`,
        );
      }
    } else if (typeof s === "boolean") {
      mode = s ? (spec.trueMode ?? "partial") : "off";
      source = "streaming";
      if (s && spec.trueExtras) extras = spec.trueExtras;
    } else if (s !== undefined && !isPlainObject(s)) {
      decided = false;
      problems.push(`${p("streaming")} has the invalid value ${show(s)}; expected an object such as { mode: "${modes[1] ?? modes[0]}" }.`);
    }
    if (decided) {
      if (mode !== undefined) {
        const base = isPlainObject(s) ? s : {};
        const nested: ConfigObject = { ...base, mode, ...extras };
        entry.streaming = nested;
        const extraText = Object.entries(extras)
          .map(([k, v]) => `, ${p("streaming", k)}: ${show(v)}`)
          .join("");
        const from = source === "streaming" ? `${p("streaming")}: ${show(s)}` : p(source);
        changes.push(`${from} -> ${p("streaming", "mode")}: ${show(mode)}${extraText}`);
      }
      if (own(entry, "streamMode")) {
        if (source !== "streamMode") changes.push(`${p("streamMode")} removed (superseded by ${p("streaming", "mode")})`);
        delete entry.streamMode;
      }
    }
  }

  // 2. Flat keys into their nested slots; an existing nested value wins.
  for (const move of spec.flatKeys ?? STANDARD_FLAT_KEYS) {
    if (!own(entry, move.key)) continue;
    const value = entry[move.key];
    const current = entry.streaming;
    if (current !== undefined && !isPlainObject(current)) {
      problems.push(`${p(move.key)} was not moved because ${p("streaming")} is not an object yet; fix ${p("streaming")} first.`);
      continue;
    }
    const target = (current ?? {}) as ConfigObject;
    let parent: ConfigObject | undefined = target;
    for (const seg of move.to.slice(0, -1)) {
      const next: unknown = parent[seg];
      if (next === undefined) break;
      if (!isPlainObject(next)) {
        parent = undefined;
        break;
      }
      parent = next;
    }
    const leaf = move.to[move.to.length - 1]!;
    const nestedValue = move.to.reduce<unknown>((o, k) => (isPlainObject(o) ? o[k] : undefined), target);
    if (nestedValue !== undefined) {
      delete entry[move.key];
      changes.push(`${p(move.key)} removed (${p("streaming", ...move.to)} is already set)`);
      continue;
    }
    const error = expectationError(move.expect, value);
    if (error) {
      problems.push(
        `${p(move.key)} has the invalid value ${show(value)} (${error}); set ${p("streaming", ...move.to)} yourself and remove ${p(move.key)}.`,
      );
      continue;
    }
    if (parent === undefined) {
      problems.push(`${p(move.key)} was not moved because a non-object is in the way at ${p("streaming", ...move.to.slice(0, -1))}.`);
      continue;
    }
    let cursor = target;
    for (const seg of move.to.slice(0, -1)) {
      if (!isPlainObject(cursor[seg])) cursor[seg] = {};
      cursor = cursor[seg] as ConfigObject;
    }
    cursor[leaf] = value;
    entry.streaming = target;
    delete entry[move.key];
    changes.push(`${p(move.key)} -> ${p("streaming", ...move.to)}`);
  }

  // 3. Renames inside the nested object.
  const nested = entry.streaming;
  if (isPlainObject(nested)) {
    for (const r of spec.nestedRenames ?? []) {
      if (!own(nested, r.from)) continue;
      if (nested[r.to] !== undefined) {
        delete nested[r.from];
        changes.push(`${p("streaming", r.from)} removed (${p("streaming", r.to)} is already set)`);
        continue;
      }
      const error = expectationError(r.expect, nested[r.from]);
      if (error) {
        problems.push(
          `${p("streaming", r.from)} has the invalid value ${show(nested[r.from])} (${error}); set ${p("streaming", r.to)} yourself.`,
        );
        continue;
      }
      nested[r.to] = nested[r.from];
      delete nested[r.from];
      changes.push(`${p("streaming", r.from)} -> ${p("streaming", r.to)}`);
    }
  }
  // 4. Keys that were accepted and never read.
  for (const key of spec.droppedKeys ?? []) {
    if (getPath(entry.streaming, key) === undefined) continue;
    deletePath(entry.streaming as ConfigObject, key);
    changes.push(`${p("streaming", ...key)} removed (it was never read)`);
  }
  return { changes, problems };
}

/**
 * Declares the doctor rule that moves a channel's retired flat streaming keys (`streamMode`,
 * scalar `streaming`, `chunkMode`, `blockStreaming`, `blockStreamingCoalesce`, and any extra
 * `flatKeys`) into its nested `streaming` object, at the channel root and in every account.
 * An existing nested value always wins; invalid legacy values are reported, never guessed.
 */
export function defineStreamingAliasMigration(spec: StreamingAliasSpec): LegacyKeyRule {
  return {
    id: `${spec.channelId}/streaming-aliases`,
    description: `Move retired flat streaming keys of channels.${spec.channelId} (and its accounts) into channels.${spec.channelId}.streaming.`,
    detect(config) {
      return channelEntries(config, spec.channelId).flatMap(({ path, entry }) => detectEntry(entry, path, spec));
    },
    apply(config) {
      const changes: string[] = [];
      const problems: string[] = [];
      for (const { path, entry } of channelEntries(config, spec.channelId)) {
        const out = migrateEntry(entry, path, spec);
        changes.push(...out.changes);
        problems.push(...out.problems);
      }
      return { changes, problems };
    },
  };
}
