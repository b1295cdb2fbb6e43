/**
 * Builds `openclaw.plugin.json`: the plugin id, its channels, and the JSON Schema of
 * `channels.matrix` generated from the zod schema, so the loader can validate config without
 * running plugin code. `scripts/gen-manifest.mjs` writes it at build time; a test keeps it current.
 */
import { z } from "zod";
import { matrixChannelConfig } from "./config.js";

/** The content of `openclaw.plugin.json`. */
export interface PluginManifest {
  id: string;
  channels: string[];
  configSchema: Record<string, unknown>;
}

/** The manifest for this package, from the current config schema. */
export function buildManifest(): PluginManifest {
  const configSchema = z.toJSONSchema(matrixChannelConfig.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { id: "matrix", channels: ["matrix"], configSchema };
}

/** The manifest as it is written to disk (two-space JSON plus a final newline). */
export function renderManifest(): string {
  return `${JSON.stringify(buildManifest(), null, 2)}\n`;
}
