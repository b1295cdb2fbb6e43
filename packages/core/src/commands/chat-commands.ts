// Slash commands a person types in a chat, answered before the agent sees anything.
import { chatFailureNotice, type AgentRuntime, type CompactionOutcome, type SkillCommand } from "../agent/index.js";
import { failureCategory, ProviderError } from "../providers/index.js";
import type { MessageQueue } from "../queue/index.js";
import { matchResetTrigger } from "../sessions/index.js";
import { commandWord, type ParseContext, parseCommand } from "./parse.js";
import { type CommandSession, contextReport, statusReport } from "./reports.js";

/** A message from an allowed sender, routed to its session. */
export interface CommandInput extends CommandSession, ParseContext {
  text: string;
}

/**
 * What to do with a message: `reply` sends the text to the chat and the agent never sees the
 * message; `agent` gives the agent `text` instead of the message (a skill command).
 */
export type CommandOutcome = { kind: "reply"; text: string } | { kind: "agent"; text: string };

export interface ChatCommandsDeps {
  runtime: AgentRuntime;
  queue: MessageQueue;
  /** Default `Date.now`. */
  now?: () => number;
}

/** The built-in commands as `/help` lists them. `/new`, `/reset` and `/queue` are answered further on. */
export const BUILTIN_COMMANDS: ReadonlyArray<{ usage: string; summary: string }> = [
  { usage: "/new, /reset", summary: "start a new session (text after it is the first message)" },
  { usage: "/status", summary: "model, session, context use and queue of this chat" },
  { usage: "/context [detail]", summary: "what goes into the prompt; detail adds the tools and their sizes" },
  { usage: "/model [ref|default]", summary: "show or switch this chat's model" },
  { usage: "/stop", summary: "abort the running turn and drop waiting messages" },
  { usage: "/queue [mode] [options]", summary: "show or change how messages wait while a turn runs" },
  { usage: "/compact", summary: "summarize older history now (the memory flush runs first)" },
  { usage: "/help", summary: "this list" },
];

/** The chat's answer to `/compact`. */
export function describeCompaction(outcome: CompactionOutcome): string {
  switch (outcome.status) {
    case "compacted":
      return `Compacted: ${outcome.summarizedMessages} older message(s) are now a summary; ${outcome.keptMessages} recent message(s) kept. Context about ${outcome.tokensBefore} -> ${outcome.tokensAfter} tokens.`;
    case "nothing":
      return "Nothing to compact yet: the history is short.";
    case "busy":
      return "A turn is running in this session; try again once it has answered.";
    case "disabled":
      return "Compaction is off (agents.defaults.compaction.enabled is false in the config).";
  }
}

/** The message a skill command gives the agent: the skill to follow, where it is, and the request. */
export function skillCommandText(skill: SkillCommand, args: string): string {
  const head = `The user invoked the /${commandWord(skill.name)} command: use the "${skill.name}" skill (read its instructions at ${skill.path} first).`;
  return args ? `${head}\n\n${args}` : head;
}

/**
 * The chat command handler. `handle` resolves undefined for a message that is not one of its
 * commands (plain text, an unknown `/word`, `/new`, `/reset` and `/queue`, which the runtime
 * and the queue answer): the message then goes on to the queue as usual. Only messages of
 * allowed senders may be given to it; strangers get the pairing flow before this.
 */
export function createChatCommands(deps: ChatCommandsDeps) {
  const { runtime, queue } = deps;
  const now = deps.now ?? Date.now;

  async function help(agentId: string): Promise<string> {
    const lines = ["Commands:", ...BUILTIN_COMMANDS.map((c) => `${c.usage} - ${c.summary}`)];
    const skills = await runtime.skillCommands(agentId).catch(() => []);
    if (skills.length > 0) {
      lines.push("", "Skills:");
      for (const s of skills) lines.push(`/${commandWord(s.name)} [request] - ${s.description || s.name}`);
    }
    return lines.join("\n");
  }

  function model(input: CommandInput, args: string): string {
    const { agentId, sessionKey } = input;
    if (args === "") {
      const current = runtime.sessionModel(agentId, sessionKey);
      const source = current.override ? "set for this chat" : "configured default";
      return `Model: ${current.ref ?? "none configured"} (${source}). Switch with /model <provider/model>; /model default goes back.`;
    }
    try {
      if (/^(default|reset|clear)$/i.test(args)) {
        const back = runtime.setSessionModel(agentId, sessionKey, undefined);
        return `This chat is back on the configured model: ${back.ref ?? "none configured"}.`;
      }
      const set = runtime.setSessionModel(agentId, sessionKey, args);
      return `This chat now uses ${set.ref} from the next turn on.`;
    } catch (err) {
      return `Could not switch the model: ${(err as Error).message}`;
    }
  }

  function stop(sessionKey: string): string {
    const summary = queue.abort(sessionKey);
    if (summary.aborted.length === 0 && summary.cancelled === 0) return "Nothing is running in this chat.";
    const dropped = summary.cancelled > 0 ? ` ${summary.cancelled} waiting message(s) dropped.` : "";
    return `${summary.aborted.length > 0 ? "Stopped the running turn." : "Nothing was running."}${dropped}`;
  }

  return {
    async handle(input: CommandInput): Promise<CommandOutcome | undefined> {
      if (matchResetTrigger(input.text, runtime.config.session.resetTriggers)) return undefined;
      const command = parseCommand(input.text, input);
      if (!command) return undefined;
      const reply = (text: string): CommandOutcome => ({ kind: "reply", text });
      switch (command.name) {
        case "queue":
          return undefined;
        case "help":
          return reply(await help(input.agentId));
        case "status":
          return reply(statusReport(runtime, queue, input, now()));
        case "context":
          return reply(await contextReport(runtime, input, /^detail\b/i.test(command.args)));
        case "model":
          return reply(model(input, command.args));
        case "stop":
          return reply(stop(input.sessionKey));
        case "compact":
          return reply(
            await runtime
              .compactSession(input.agentId, input.sessionKey)
              .then(describeCompaction, (err: unknown) =>
                chatFailureNotice(failureCategory(err), err instanceof ProviderError && err.provider !== ""),
              ),
          );
      }
      const skills = await runtime.skillCommands(input.agentId).catch(() => []);
      const skill = skills.find((s) => commandWord(s.name) === commandWord(command.name));
      return skill ? { kind: "agent", text: skillCommandText(skill, command.args) } : undefined;
    },
  };
}

/** The chat command handler of a pipeline; see {@link createChatCommands}. */
export type ChatCommands = ReturnType<typeof createChatCommands>;
