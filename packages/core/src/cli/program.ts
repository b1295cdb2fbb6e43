import { Command } from "commander";
import { createCliContext, type CliContext } from "./context.js";
import { coreVersion } from "./version.js";
import { registerCommands } from "./commands/index.js";

/** Builds the `openclaw` command tree. Each concern registers its commands in commands/index.ts. */
export function buildProgram(): { program: Command; ctx: CliContext } {
  const program = new Command("openclaw");
  program
    .description("OpenClaw: a self-hosted personal AI agent gateway")
    .version(coreVersion(), "-V, --version", "print the version of @openclaw/core")
    .option("--profile <name>", "isolate config and state under ~/.openclaw-<name>")
    .showHelpAfterError("(run with --help for usage)")
    .enablePositionalOptions(false);
  const ctx = createCliContext(program);
  registerCommands(program, ctx);
  return { program, ctx };
}
