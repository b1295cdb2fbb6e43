import type { z } from "zod";
import type { LegacyKeyRule } from "../migrations/types.js";

/**
 * How block replies turn on for a channel when `streaming.block.enabled` is unset:
 * - `"inherit"`: follow `agents.defaults.blockStreamingDefault` (Telegram);
 * - `"explicit"`: only an explicit `streaming.block.enabled: true` turns them on;
 * - `"unless-off"`: always on unless `streaming.mode` is `"off"` (QQ Bot).
 */
export type BlockReplyDefault = "inherit" | "explicit" | "unless-off";

/** Everything config validation and `openclaw doctor` need to know about one channel. */
export interface ChannelConfigDefinition<S extends z.ZodType = z.ZodType> {
  /** The key under `channels`, e.g. `"telegram"`. */
  id: string;
  /** Human name, e.g. `"Telegram"`. */
  label: string;
  /**
   * The npm package that provides this channel (its package.json `name`). Informational: while
   * the plugin is not installed, core cannot read this definition, so "not installed" messages
   * never come from it.
   */
  packageName: string;
  /** Strict zod schema of `channels.<id>` (built with `channelConfigSchema`). */
  schema: S;
  /** Doctor rules for this channel's retired keys, run in order. */
  migrations: readonly LegacyKeyRule[];
  /** Streaming behaviour when keys are unset. `previewMode: null` means the channel cannot preview. */
  streamingDefaults: { previewMode: string | null; blockReplies: BlockReplyDefault };
}

/** Identity helper that keeps the schema's type. */
export function defineChannelConfig<S extends z.ZodType>(definition: ChannelConfigDefinition<S>): ChannelConfigDefinition<S> {
  return definition;
}
