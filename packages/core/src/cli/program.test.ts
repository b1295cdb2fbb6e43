import { describe, expect, it } from "vitest";
import { TOP_LEVEL_COMMANDS } from "./commands/index.js";
import { buildProgram, invokedCommand } from "./program.js";

const argv = (...args: string[]) => ["node", "openclaw", ...args];
const names = (argvOrNone?: string[]) => buildProgram(argvOrNone).program.commands.map((c) => c.name());

describe("building only the command being run", () => {
  it("finds the command past global options, and none for help, no command or an unknown one", () => {
    expect(invokedCommand(argv("config", "validate"))).toBe("config");
    expect(invokedCommand(argv("--profile", "work", "doctor", "--fix"))).toBe("doctor");
    expect(invokedCommand(argv("--profile=work", "sessions", "list"))).toBe("sessions");
    expect(invokedCommand(argv("--profile", "config"))).toBeUndefined(); // "config" is the profile's name
    expect(invokedCommand(argv("help", "config"))).toBeUndefined();
    expect(invokedCommand(argv("--help"))).toBeUndefined();
    expect(invokedCommand(argv())).toBeUndefined();
    expect(invokedCommand(argv("confg", "validate"))).toBeUndefined();
    expect(invokedCommand(argv("toString"))).toBeUndefined();
  });

  it("registers exactly the named command, whose help reads as in the whole tree", () => {
    const whole = buildProgram().program;
    expect(whole.commands.map((c) => c.name())).toEqual(Object.keys(TOP_LEVEL_COMMANDS));
    for (const name of Object.keys(TOP_LEVEL_COMMANDS)) {
      const alone = buildProgram(argv(name, "--help")).program;
      expect(alone.commands.map((c) => c.name())).toEqual([name]);
      const help = (p: typeof whole) => p.commands[p.commands.findIndex((c) => c.name() === name)]!.helpInformation();
      expect(help(alone)).toBe(help(whole));
    }
  });

  it("registers every command when none is named, so help lists them all and a typo gets a suggestion", () => {
    expect(names(argv("--help"))).toEqual(Object.keys(TOP_LEVEL_COMMANDS));
    expect(names(argv("confg"))).toEqual(Object.keys(TOP_LEVEL_COMMANDS));
  });
});
