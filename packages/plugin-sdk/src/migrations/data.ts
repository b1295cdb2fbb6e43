// Doctor rules of a channel as plain data, so that core can ship them for channels whose plugin
// is not installed (and compare them with the installed plugin's), and compile them into rules.
import { type ConfigObject, deletePath, formatPath, getPath, isPlainObject, setPath } from "./object-path.js";
import {
  channelEntries,
  defineStreamingAliasMigration,
  expectationError,
  type FlatKeyMove,
  type NestedRename,
  type ValueExpectation,
} from "./streaming-aliases.js";
import type { LegacyFinding, LegacyKeyRule, MigrationOutcome } from "./types.js";

/**
 * The retired flat streaming keys of a channel (`streamMode`, scalar `streaming`, `chunkMode`,
 * `blockStreaming`, `blockStreamingCoalesce`, and `flatKeys`) move into its nested `streaming`
 * object, at the channel root and in every account. A nested value already present wins.
 */
export interface StreamingAliasMigration {
  kind: "streaming-aliases";
  /** Valid `streaming.mode` values; omit for a channel without previews (its mode keys are dropped). */
  modes?: readonly string[];
  /** Mode for `streaming: true` (default `"partial"`). */
  trueMode?: string;
  /** Extra nested values set when `streaming: true` is migrated (e.g. `{ nativeTransport: true }`). */
  trueExtras?: Readonly<Record<string, unknown>>;
  /** Flat keys moved under `streaming`; default: `STANDARD_FLAT_KEYS` (chunkMode, blockStreaming, blockStreamingCoalesce). */
  flatKeys?: readonly FlatKeyMove[];
  /** Keys inside `streaming` that were renamed. */
  nestedRenames?: readonly NestedRename[];
  /**
   * Paths inside `streaming` that were accepted but never read (Feishu's
   * `["block", "coalesce", "minDelayMs"]`): doctor removes them, after the flat keys moved in.
   */
  droppedKeys?: readonly (readonly string[])[];
}

/**
 * One key of the channel (and of each account) moved to another path of the same object. A
 * nested key's parent object that the move leaves empty is removed too (`dm: { policy }` ->
 * `dmPolicy` leaves no `dm: {}` behind).
 */
export interface KeyMoveMigration {
  kind: "key-move";
  /** Path relative to the channel root or account, e.g. `["webhook", "secret"]`. */
  from: readonly string[];
  to: readonly string[];
  expect?: ValueExpectation;
}

/**
 * The channel's older `dmPolicy: "open"` meant "allowlist when allowFrom has entries, else open"
 * (the reference OpenClaw's QQ Bot). Here "open" requires `allowFrom: ["*"]`, so doctor spells
 * that meaning out, at the root and in every account: with entries (the account's own, else the
 * root's) the policy becomes "allowlist"; without any, `allowFrom` becomes `["*"]`.
 */
export interface OpenMeansAllowlistMigration {
  kind: "open-means-allowlist-with-entries";
}

/** A doctor rule of a channel, as data. */
export type ChannelMigration = StreamingAliasMigration | KeyMoveMigration | OpenMeansAllowlistMigration;

/** Every `ChannelMigration` kind this SDK version knows (hosts refuse others). */
export const CHANNEL_MIGRATION_KINDS: readonly ChannelMigration["kind"][] = [
  "streaming-aliases",
  "key-move",
  "open-means-allowlist-with-entries",
];

function openMeansAllowlistRule(channelId: string, index: number): LegacyKeyRule {
  /** The entries whose effective policy is "open" without "*", with the effective allowFrom. */
  const offending = (config: ConfigObject) => {
    const entries = channelEntries(config, channelId);
    const root = entries[0]?.entry;
    return entries.flatMap(({ path, entry }) => {
      if (entry.dmPolicy === undefined && entry.allowFrom === undefined) return [];
      const policy = entry.dmPolicy ?? root?.dmPolicy;
      const allowFrom = Array.isArray(entry.allowFrom) ? entry.allowFrom : Array.isArray(root?.allowFrom) ? root.allowFrom : [];
      if (policy !== "open" || allowFrom.includes("*")) return [];
      return [{ path, entry, allowFrom }];
    });
  };
  return {
    id: `${channelId}/open-means-allowlist-${index}`,
    description: `channels.${channelId}.dmPolicy "open" with allowFrom entries meant "allowlist"; spell it out (root and accounts).`,
    detect(config) {
      return offending(config).map(({ path, allowFrom }) => ({
        path: [...path, "dmPolicy"],
        message:
          `${formatPath([...path, "dmPolicy"])} "open" without "*" in allowFrom meant ${allowFrom.length > 0 ? '"allowlist" (it has entries)' : "open to everyone (allowFrom is empty)"} ` +
          `in the reference OpenClaw; run \`openclaw doctor --fix\` to write ${allowFrom.length > 0 ? 'dmPolicy: "allowlist"' : 'allowFrom: ["*"]'}.`,
      }));
    },
    apply(config) {
      const outcome: MigrationOutcome = { changes: [], problems: [] };
      for (const { path, entry, allowFrom } of offending(config)) {
        if (allowFrom.length > 0) {
          entry.dmPolicy = "allowlist";
          outcome.changes.push(
            `${formatPath([...path, "dmPolicy"])}: "open" -> "allowlist" (with allowFrom entries, "open" meant an allowlist; same senders allowed)`,
          );
        } else {
          entry.allowFrom = ["*"];
          outcome.changes.push(
            `${formatPath([...path, "allowFrom"])}: ["*"] added (dmPolicy "open" with no entries meant open to everyone)`,
          );
        }
      }
      return outcome;
    },
  };
}

/** Deletes a moved key, and its parent objects that are left empty by it. */
function deleteMoved(entry: ConfigObject, from: readonly string[]): void {
  deletePath(entry, from);
  for (let depth = from.length - 1; depth > 0; depth--) {
    const parent = getPath(entry, from.slice(0, depth));
    if (!isPlainObject(parent) || Object.keys(parent).length > 0) break;
    deletePath(entry, from.slice(0, depth));
  }
}

function keyMoveRule(channelId: string, move: KeyMoveMigration, index: number): LegacyKeyRule {
  return {
    id: `${channelId}/key-move-${index}`,
    description: `Move channels.${channelId}.${formatPath(move.from)} to ${formatPath(move.to)} (root and accounts).`,
    detect(config) {
      const findings: LegacyFinding[] = [];
      for (const { path, entry } of channelEntries(config, channelId)) {
        if (getPath(entry, move.from) === undefined) continue;
        findings.push({
          path: [...path, ...move.from],
          message: `${formatPath([...path, ...move.from])} is retired; run \`openclaw doctor --fix\` to move it to ${formatPath([...path, ...move.to])}.`,
        });
      }
      return findings;
    },
    apply(config) {
      const outcome: MigrationOutcome = { changes: [], problems: [] };
      for (const { path, entry } of channelEntries(config, channelId)) {
        const value = getPath(entry, move.from);
        if (value === undefined) continue;
        const from = formatPath([...path, ...move.from]);
        const to = formatPath([...path, ...move.to]);
        if (getPath(entry, move.to) !== undefined) {
          deleteMoved(entry, move.from);
          outcome.changes.push(`${from} removed (${to} is already set)`);
          continue;
        }
        const error = expectationError(move.expect, value);
        if (error) {
          outcome.problems.push(`${from} has the invalid value ${JSON.stringify(value)} (${error}); set ${to} yourself.`);
          continue;
        }
        setPath(entry, move.to, value);
        deleteMoved(entry, move.from);
        outcome.changes.push(`${from} -> ${to}`);
      }
      return outcome;
    },
  };
}

/** Compiles a channel's migration data into the rules doctor and validation run, in order. */
export function compileChannelMigrations(channelId: string, migrations: readonly ChannelMigration[]): LegacyKeyRule[] {
  return migrations.map((m, i) => {
    if (m.kind === "key-move") return keyMoveRule(channelId, m, i);
    if (m.kind === "open-means-allowlist-with-entries") return openMeansAllowlistRule(channelId, i);
    const { kind: _kind, ...spec } = m;
    return defineStreamingAliasMigration({ channelId, ...spec });
  });
}
