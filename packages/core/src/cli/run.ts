import { CommanderError } from "commander";
import { UserError } from "../config/paths.js";
import { buildProgram } from "./program.js";

/**
 * Runs the `openclaw` command line `argv` (as `process.argv`: node, script, args) to completion:
 * sets `process.exitCode` for usage errors and UserErrors (printing the latter's message to
 * stderr), rethrows anything else. Shared by tsc's dist/cli/main.js and the bin's bundles.
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  // `openclaw … | head` closes the pipe early; that is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  const { program } = buildProgram(argv);
  program.exitOverride();
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof UserError) {
      process.stderr.write(err.message.endsWith("\n") ? err.message : `${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    throw err;
  }
}
