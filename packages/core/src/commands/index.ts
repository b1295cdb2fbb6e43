// Public surface of the chat commands concern: `/status`, `/context`, `/model`, `/stop`, `/help`,
// `/compact` and skill commands, answered before the agent; the `openclaw context` report pieces.
export {
  BUILTIN_COMMANDS,
  createChatCommands,
  describeCompaction,
  skillCommandText,
  type ChatCommands,
  type ChatCommandsDeps,
  type CommandInput,
  type CommandOutcome,
} from "./chat-commands.js";
export { commandWord, parseCommand, type ParseContext, type ParsedCommand } from "./parse.js";
export { contextReport, statusReport, type CommandSession } from "./reports.js";
export { fileSummary, KIND_LABEL, table, toolTable, type ToolSize } from "./context-report.js";
