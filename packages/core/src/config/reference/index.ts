// The configuration reference (docs/configuration-reference.md), generated from the schema.
import { configJsonSchema } from "./json-schema.js";
import { renderConfigReference } from "./render.js";

export { renderConfigReference, type ConfigReferenceOptions } from "./render.js";
export { configJsonSchema } from "./json-schema.js";
export type { JsonSchemaNode } from "./json-schema-node.js";

/** Repository-relative path of the generated reference. */
export const CONFIG_REFERENCE_FILE = "docs/configuration-reference.md";

/** The reference for the built-in schema, exactly as `pnpm docs:gen` writes it. */
export function renderBuiltinConfigReference(): string {
  return renderConfigReference(configJsonSchema());
}
