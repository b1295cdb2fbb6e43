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

/**
 * Every top-level command, one register function per concern. Registration files stay light
 * (commander definitions only; `import type` for anything else): each action loads its
 * implementation from `../actions/<name>.js` with a dynamic `import()` when the command runs, so
 * `openclaw --version`/`--help` load no concern. test/cli-startup.test.ts enforces this.
 */
export function registerCommands(program: Command, ctx: CliContext): void {
  void program;
  void ctx;
  registerConfig(program, ctx);
  registerDoctor(program, ctx);
  registerSkills(program, ctx);
  registerSetup(program, ctx);
  registerContext(program, ctx);
  registerSessions(program, ctx);
  registerAgent(program, ctx);
  registerPlugins(program, ctx);
  registerPairing(program, ctx);
  registerGateway(program, ctx);
  registerStatus(program, ctx);
  registerChannels(program, ctx);
  registerCron(program, ctx);
  registerHeartbeat(program, ctx);
  registerLogs(program, ctx);
  registerUpdate(program, ctx);
  registerDashboard(program, ctx);
  registerOnboard(program, ctx);
  registerMemory(program, ctx);
}
