import { z } from "zod";
import { type ConfigRegistry, createConfigRegistry } from "../registry.js";

/**
 * The JSON Schema of openclaw.json for the channels of `registry` (default: no channel plugin
 * installed), in input form (keys with a default are optional and carry `default`; descriptions
 * come from `.describe()`). Values zod cannot express in JSON Schema become `{}` (any). Same
 * output as `openclaw config schema`.
 */
export function configJsonSchema(registry: ConfigRegistry = createConfigRegistry()): Record<string, unknown> {
  const schema = z.toJSONSchema(registry.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { title: "OpenClaw configuration (openclaw.json)", ...schema };
}
