// The configuration reference (docs/configuration-reference.md), generated from the schema.
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import { createConfigRegistry } from "../registry.js";
import { configJsonSchema } from "./json-schema.js";
import { renderConfigReference } from "./render.js";

export { renderConfigReference, type ConfigReferenceOptions } from "./render.js";
export { configJsonSchema } from "./json-schema.js";
export type { JsonSchemaNode } from "./json-schema-node.js";

/** Repository-relative path of the generated reference. */
export const CONFIG_REFERENCE_FILE = "docs/configuration-reference.md";

/**
 * The reference for core's schema with the given channel definitions (`pnpm docs:gen` passes the
 * config entries of the channel packages in this repository), exactly as it writes it.
 */
export function renderBuiltinConfigReference(channels: readonly ChannelConfigDefinition[] = []): string {
  return renderConfigReference(configJsonSchema(createConfigRegistry(channels)));
}
