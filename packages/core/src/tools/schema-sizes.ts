import type { AgentTool } from "../tool-contract/index.js";

/** How much prompt space one tool definition takes. */
export interface ToolSchemaSize {
  name: string;
  descriptionChars: number;
  /** JSON size of the parameters schema. */
  schemaChars: number;
  /** JSON size of `{name, description, parameters}`, roughly what a provider sends. */
  totalChars: number;
}

/** Size of each tool's definition, heaviest first (ties by name). For `openclaw context --detail`. */
export function toolSchemaSizes(tools: readonly Pick<AgentTool, "name" | "description" | "parameters">[]): ToolSchemaSize[] {
  return tools
    .map((t) => ({
      name: t.name,
      descriptionChars: t.description.length,
      schemaChars: JSON.stringify(t.parameters).length,
      totalChars: JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }).length,
    }))
    .sort((a, b) => b.totalChars - a.totalChars || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
