import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { registerConfig } from "./config.js";
import { registerDoctor } from "./doctor.js";
import { registerSkills } from "./skills.js";
import { registerSetup } from "./setup.js";
import { registerContext } from "./context.js";
import { registerSessions } from "./sessions.js";
import { registerAgent } from "./agent.js";
import { registerPlugins } from "./plugins.js";
import { registerPairing } from "./pairing.js";
import { registerGateway } from "./gateway.js";
import { registerStatus } from "./status.js";
import { registerChannels } from "./channels.js";
import { registerCron } from "./cron.js";
import { registerHeartbeat } from "./heartbeat.js";
import { registerLogs } from "./logs.js";
import { registerUpdate } from "./update.js";
import { registerDashboard } from "./dashboard.js";
import { registerOnboard } from "./onboard.js";
import { registerMemory } from "./memory.js";

/** Every top-level command by name, in the order `openclaw --help` lists them; one register function per concern. */
export const TOP_LEVEL_COMMANDS: Readonly<Record<string, (program: Command, ctx: CliContext) => void>> = {
  config: registerConfig,
  doctor: registerDoctor,
  skills: registerSkills,
  setup: registerSetup,
  context: registerContext,
  sessions: registerSessions,
  agent: registerAgent,
  plugins: registerPlugins,
  pairing: registerPairing,
  gateway: registerGateway,
  status: registerStatus,
  channels: registerChannels,
  cron: registerCron,
  heartbeat: registerHeartbeat,
  logs: registerLogs,
  update: registerUpdate,
  dashboard: registerDashboard,
  onboard: registerOnboard,
  memory: registerMemory,
};

/**
 * Registers the top-level commands: all of them, or only `only` (the command being run, so a
 * command does not pay for building the whole tree). Registration files stay light (commander
 * definitions only; `import type` for anything else): each action loads its implementation from
 * `../actions/<name>.js` with a dynamic `import()` when the command runs, so `openclaw
 * --version`/`--help` load no concern. test/cli-startup.test.ts enforces this.
 */
export function registerCommands(program: Command, ctx: CliContext, only?: string): void {
  const register = only === undefined ? undefined : TOP_LEVEL_COMMANDS[only];
  if (register) return register(program, ctx);
  for (const each of Object.values(TOP_LEVEL_COMMANDS)) each(program, ctx);
}
