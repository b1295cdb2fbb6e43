import { z } from "zod";
import type { AgentTool, ToolContext, ToolResult } from "./types.js";

export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  groups: string[];
  /** zod schema of the arguments; its JSON Schema (input side) becomes `parameters`. */
  schema: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** A failure whose message is meant for the model as is (no "Error:" noise, no stack). */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

/** Converted schemas: tools are rebuilt per session, their zod schemas are module constants. */
const parametersOf = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * JSON Schema of a zod schema as providers want it: the input side, without `$schema`. Converted
 * once per schema object (the result is shared: treat it as read-only).
 */
export function toParameters(schema: z.ZodType): Record<string, unknown> {
  let json = parametersOf.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    delete json.$schema;
    parametersOf.set(schema, json);
  }
  return json;
}

/**
 * Builds an AgentTool from a zod schema and a run function. Arguments given as a JSON string are
 * parsed first; invalid arguments and anything thrown by `run` come back as `isError` results.
 */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): AgentTool {
  const parameters = toParameters(def.schema);
  return {
    name: def.name,
    description: def.description,
    parameters,
    groups: [...def.groups],
    async execute(args: unknown, ctx: ToolContext): Promise<ToolResult> {
      let input = args ?? {};
      if (typeof input === "string") {
        try {
          input = JSON.parse(input);
        } catch {
          return { content: `${def.name}: arguments are not valid JSON.`, isError: true };
        }
      }
      const parsed = def.schema.safeParse(input);
      if (!parsed.success) {
        return { content: `${def.name}: invalid arguments:\n${z.prettifyError(parsed.error)}`, isError: true };
      }
      try {
        return await def.run(parsed.data, ctx);
      } catch (err) {
        if (ctx.signal.aborted) return { content: `${def.name} was aborted.`, isError: true, details: { aborted: true } };
        return errorResult(def.name, err);
      }
    },
  };
}

function errorResult(tool: string, err: unknown): ToolResult {
  if (err instanceof ToolError) return { content: err.message, isError: true, ...(err.details ? { details: err.details } : {}) };
  if (err instanceof Error && (err.name === "WorkspacePathError" || err.name === "NotRegularFileError")) {
    return { content: err.message, isError: true };
  }
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return { content: `${tool} failed: ${message}`, isError: true, ...(code ? { details: { code } } : {}) };
}
