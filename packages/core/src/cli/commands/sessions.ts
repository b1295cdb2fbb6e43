import type { Command } from "commander";
import type { CompactOptions } from "../actions/sessions-compact.js";
import type { SessionsOptions } from "../actions/sessions.js";
import type { CliContext } from "../context.js";

/** The implementation (the SQLite session store, the config module), imported only on use. */
const actions = () => import("../actions/sessions.js");

/** `openclaw sessions list|show` (read-only views of an agent's session database) and `sessions compact`. */
export function registerSessions(program: Command, ctx: CliContext): void {
  const sessions = program
    .command("sessions")
    .description(
      "inspect an agent's sessions and transcripts (list and show are read-only and safe while the gateway runs), or compact one",
    );

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

  sessions
    .command("compact")
    .description("summarize a session's older turns now (the memory flush runs first), as /compact does in a chat")
    .argument("<key>", 'the session key, e.g. "agent:main:main" (a bare "main" means agent:<agent>:main)')
    .option("--agent <id>", "the agent that owns the session (default: the default agent)")
    .option("--local", "compact in this process (only while no gateway runs); default: ask the running gateway")
    .option("--url <url>", "gateway URL when not local (default: the running gateway's)")
    .option("--token <token>", "gateway token when not local (default: OPENCLAW_GATEWAY_TOKEN or <stateDir>/gateway.token)")
    .option("--json", "print JSON instead of text")
    .action(async (rawKey: string, opts: CompactOptions) =>
      (await import("../actions/sessions-compact.js")).compactSession(ctx, rawKey, opts),
    );
}
