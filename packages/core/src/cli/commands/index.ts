import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** Every top-level command, one register function per concern. */
export function registerCommands(program: Command, ctx: CliContext): void {
  void program;
  void ctx;
}
