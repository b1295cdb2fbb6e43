import type { Command } from "commander";
import type { SessionsOptions } from "../actions/sessions.js";
import type { CliContext } from "../context.js";

/** The implementation (the SQLite session store, the config module), imported only on use. */
const actions = () => import("../actions/sessions.js");

/** `openclaw sessions list|show`: read-only views of an agent's session database. */
export function registerSessions(program: Command, ctx: CliContext): void {
  const sessions = program
    .command("sessions")
    .description("inspect an agent's sessions and transcripts (read-only; safe while the gateway runs)");

  sessions
    .command("list", { isDefault: true })
    .description("list session keys with their current session id, last update, chat type and event count")
    .option("--agent <id>", "the agent whose sessions to list (default: the default agent)")
    .option("--json", "print JSON instead of a table")
    .action(async (opts: SessionsOptions) => (await actions()).listSessions(ctx, opts));

  sessions
    .command("show")
    .description("show one session: its entry and its transcript events in order")
    .argument("<key>", 'the session key, e.g. "agent:main:main" (a bare "main" means agent:<agent>:main)')
    .option("--agent <id>", "the agent that owns the session (default: the default agent)")
    .option("--tail <n>", "show only the last n events")
    .option("--json", "print JSON instead of text")
    .action(async (rawKey: string, opts: SessionsOptions) => (await actions()).showSession(ctx, rawKey, opts));
}
