#!/usr/bin/env node
import { CommanderError } from "commander";
import { UserError } from "../config/paths.js";
import { buildProgram } from "./program.js";

async function main(): Promise<void> {
  const { program } = buildProgram();
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
