// `openclaw channels login` in a real terminal (tmux): the QR code a user would scan is on the
// screen, readable from the pane's colours, and Ctrl-C typed into the terminal cancels cleanly.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, cliEnv, makeTempHome } from "./helpers/cli.js";
import { decodeTerminalQrs } from "./helpers/terminal-qr.js";
import { startTmux, TMUX_AVAILABLE, type TmuxPane } from "./helpers/tmux.js";

const LINKCHAT = fileURLToPath(new URL("./fixtures/plugins/linkchat", import.meta.url));
const { QR_CODES } = (await import(pathToFileURL(path.join(LINKCHAT, "index.js")).href)) as { QR_CODES: string[] };

let home: string;
let cleanup: () => void;
let pane: TmuxPane | undefined;

function writeConfig(linkchat: Record<string, unknown>): void {
  mkdirSync(path.join(home, ".openclaw"), { recursive: true });
  writeFileSync(
    path.join(home, ".openclaw", "openclaw.json"),
    JSON.stringify({ plugins: { load: { paths: [LINKCHAT] } }, channels: { linkchat } }),
  );
}

function runInTerminal(args: string[]): TmuxPane {
  pane = startTmux([process.execPath, CLI_ENTRY, ...args], { env: cliEnv(home), cwd: home });
  return pane;
}

beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-login-tty-"));
});
afterEach(() => {
  pane?.kill();
  pane = undefined;
  cleanup();
});

describe("channels login in a terminal", () => {
  // A missing tool fails the run instead of skipping it: CI must exercise these.
  beforeAll(() =>
    expect(
      TMUX_AVAILABLE,
      "tmux is missing: install it (bash scripts/install-test-tools.sh); the QR code is checked in a real terminal",
    ).toBe(true),
  );
  it("shows each QR code on the screen, scannable, then Linked as", async () => {
    writeConfig({});
    const terminal = runInTerminal(["channels", "login", "linkchat"]);
    expect(await terminal.exitCode()).toBe(0);
    const screen = terminal.capture();
    expect(decodeTerminalQrs(screen)).toEqual(QR_CODES);
    expect(screen).toContain("Linked as +15550001111.");
  }, 30_000);

  it("Ctrl-C typed while the QR code waits to be scanned exits 130 without a stack trace", async () => {
    writeConfig({ loginMode: "wait" });
    const terminal = runInTerminal(["channels", "login", "linkchat"]);
    await terminal.waitFor(/Ctrl-C to cancel/, { what: "the first QR code" });
    expect(decodeTerminalQrs(terminal.capture())).toEqual([QR_CODES[0]]);
    terminal.sendKeys("C-c");
    expect(await terminal.exitCode()).toBe(130);
    const screen = terminal.capture();
    expect(screen).toContain("Login cancelled (Ctrl-C); linkchat:default was not linked.");
    expect(screen).not.toMatch(/\n\s+at /);
    expect(screen).not.toContain("Linked as");
  }, 30_000);
});
