import type { z } from "zod";
import type { ChannelCapabilities, ChatKind } from "../channel/types.js";
import type { ChannelMigration } from "../migrations/data.js";

/**
 * How block replies turn on for a channel when `streaming.block.enabled` is unset:
 * - `"inherit"`: follow `agents.defaults.blockStreamingDefault` (an explicit non-off preview mode
 *   beats an inherited "on");
 * - `"explicit"`: only an explicit `streaming.block.enabled: true` turns them on;
 * - `"unless-off"`: always on unless `streaming.mode` is `"off"`.
 */
export type BlockReplyDefault = "inherit" | "explicit" | "unless-off";

/**
 * The live-preview styles core's delivery engine can render: `partial` (the reply so far, edited
 * in place), `block` (the preview grows a block at a time), `progress` (a status draft, replaced
 * by the reply), `quiet` (like partial, as a notice without mentions).
 */
export type DeliveryPreviewMode = "partial" | "block" | "progress" | "quiet";

/**
 * How a channel delivers replies, as data: core's delivery planner reads it, and
 * `openclaw config validate` checks the configured `streaming` against it before anything runs.
 */
export interface DeliveryPolicy {
  /** The `streaming.mode` values the channel accepts besides `"off"` (empty: no preview). */
  previewModes: readonly DeliveryPreviewMode[];
  /** The mode used when `streaming.mode` is unset; `null` when the channel cannot preview. */
  defaultMode: DeliveryPreviewMode | "off" | null;
  blockReplies: BlockReplyDefault;
  /**
   * When the platform's native stream (`capabilities.nativeStream`) carries the reply instead of
   * an edited preview or block replies. Absent: never.
   * - `mode`: the `streaming.mode` that selects it (e.g. `"partial"`);
   * - `flag`: a boolean key under `streaming` that must also be true (e.g. `"nativeTransport"`);
   * - `overBlocks`: the stream wins when block replies are on too (else blocks win).
   * Per-chat availability comes from the session's `capabilitiesFor(chat).nativeStream`.
   */
  nativeStream?: { mode: string; flag?: string; overBlocks: boolean };
}

/** Why a configured sender id can never match anyone, and what to write instead. */
export interface SenderIdProblem {
  /** What is wrong, naming the entry as written, e.g. `"@alice" is a username; Telegram allowFrom takes numeric user ids.` */
  message: string;
  /** What the user should do, e.g. `ask the user to message the bot and run \`openclaw pairing list\`.` */
  fix: string;
}

/**
 * How a channel spells ids, so that `allowFrom`, `groups` keys, pairing rows, bindings and session
 * keys agree on what "the same sender" means. Every function receives a trimmed, non-empty id
 * from which a `<channel>:` (or one of `prefixes`) prefix was already removed. Defaults: ids are
 * lowercased.
 */
export interface ChannelIdRules {
  /** Extra prefixes accepted before ids in config and targets (e.g. `["tg"]`), besides the channel id. */
  prefixes?: readonly string[];
  /** A user id in canonical form (a DM peer, an `allowFrom` entry, a pairing row). */
  sender?(id: string): string;
  /** A chat id in canonical form (a `groups` key, a group peer in a binding). */
  chat?(id: string): string;
  /** The kind of a chat named only by its (canonical) id, when its spelling tells; else undefined. */
  chatKindOf?(chatId: string): ChatKind | undefined;
  /**
   * Checks a sender id written in config (`allowFrom`, `groupAllowFrom`, a group's or topic's
   * `allowFrom`, at the root and in every account): a problem when no sender of this platform can
   * ever have that id, else undefined. Core never passes `"*"`, and passes numbers as their
   * decimal string. `openclaw config validate`, `openclaw doctor` and gateway start report each
   * problem as an error with its key path (e.g. `channels.<id>.allowFrom[1]`), the file and the
   * fix. Absent: every id is accepted.
   */
  checkSender?(id: string): SenderIdProblem | undefined;
}

/**
 * A channel's light config entry: everything config validation, `openclaw doctor` and the
 * delivery planner need, importable without the channel's runtime (exported by the package's
 * `configEntry`). `migrations` is plain data, so core can ship it for channels not installed.
 */
export interface ChannelConfigDefinition<S extends z.ZodType = z.ZodType> {
  /** The key under `channels`, e.g. `"matrix"`. */
  id: string;
  /** Human name, e.g. `"Matrix"`. */
  label: string;
  /**
   * The npm package that provides this channel (its package.json `name`). Informational: while
   * the plugin is not installed, core cannot read this definition, so "not installed" messages
   * never come from it.
   */
  packageName: string;
  /** Strict zod schema of `channels.<id>` (built with `channelConfigSchema`). */
  schema: S;
  /** Doctor rules for this channel's retired keys, as data, run in order. */
  migrations: readonly ChannelMigration[];
  /** What the platform can do (per chat, a session may narrow it with `capabilitiesFor`). */
  capabilities: ChannelCapabilities;
  delivery: DeliveryPolicy;
  /** Id spelling rules; default: strip the channel prefix and lowercase. */
  ids?: ChannelIdRules;
}

/** Identity helper that keeps the schema's type. */
export function defineChannelConfig<S extends z.ZodType>(definition: ChannelConfigDefinition<S>): ChannelConfigDefinition<S> {
  return definition;
}
