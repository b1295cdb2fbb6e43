import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { registerConfig } from "./config.js";
import { registerDoctor } from "./doctor.js";
import { registerSkills } from "./skills.js";
import { registerSetup } from "./setup.js";
import { registerContext } from "./context.js";
import { registerSessions } from "./sessions.js";
import { registerAgent } from "./agent.js";

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
}
