import { Command } from "commander";
import { createCliContext, type CliContext } from "./context.js";
import { coreVersion } from "./version.js";
import { registerCommands, TOP_LEVEL_COMMANDS } from "./commands/index.js";

/**
 * The top-level command `argv` (as `process.argv`: node, script, args) runs, when it names one
 * that exists; undefined for `--help`, `help <command>`, no command or an unknown one (those need
 * the whole tree: the list, or commander's suggestion of a near name). Skips the global options,
 * with the value of `--profile <name>`.
 */
export function invokedCommand(argv: readonly string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--profile") i++;
    else if (!arg.startsWith("-")) return Object.hasOwn(TOP_LEVEL_COMMANDS, arg) ? arg : undefined;
  }
  return undefined;
}

/**
 * Builds the `openclaw` command tree. Each concern registers its commands in commands/index.ts.
 * Given `argv`, only the command it runs is registered (see `invokedCommand`); without, all are.
 */
export function buildProgram(argv?: readonly string[]): { program: Command; ctx: CliContext } {
  const program = new Command("openclaw");
  program
    .description("OpenClaw: a self-hosted personal AI agent gateway")
    .version(coreVersion(), "-V, --version", "print the version of @openclaw/core")
    .option("--profile <name>", "isolate config and state under ~/.openclaw-<name>")
    .showHelpAfterError("(run with --help for usage)")
    .enablePositionalOptions(false);
  const ctx = createCliContext(program);
  registerCommands(program, ctx, argv ? invokedCommand(argv) : undefined);
  return { program, ctx };
}
