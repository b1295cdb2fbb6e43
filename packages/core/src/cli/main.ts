#!/usr/bin/env node
import { CommanderError } from "commander";
import { UserError } from "../config/paths.js";
import { buildProgram } from "./program.js";

// `openclaw … | head` closes the pipe early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

async function main(): Promise<void> {
  const { program } = buildProgram(process.argv);
  program.exitOverride();
  try {
    await program.parseAsync(process.argv);
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

await main();
