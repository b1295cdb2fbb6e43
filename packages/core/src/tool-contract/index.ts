// The tool contract: what a tool is (AgentTool, ToolContext, ToolResult) and `defineTool`. Light on
// purpose: code that defines a tool (session tools, the message tool) imports this, not the
// built-in tools, which load only when a run first needs them.
export type { ImagePart } from "../providers/index.js";
export type { AgentTool, ToolContext, ToolResult, ToolRoot } from "./types.js";
export { defineTool, toParameters, ToolError, type ToolDefinition } from "./define.js";
