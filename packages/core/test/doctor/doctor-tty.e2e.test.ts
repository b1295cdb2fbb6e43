// `openclaw doctor` in a real terminal (tmux): with changes pending it shows them and asks before
// applying them; `y` applies them, anything else leaves the file as it was.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, cliEnv, makeTempHome } from "../helpers/cli.js";
import { startTmux, TMUX_AVAILABLE, type TmuxPane } from "../helpers/tmux.js";

const LEGACY = `{
  channels: { qqbot: { streaming: true } },
}
`;

let home: string;
let cleanup: () => void;
let configPath: string;
let pane: TmuxPane | undefined;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-doctor-tty-"));
  configPath = path.join(home, ".openclaw", "openclaw.json");
  mkdirSync(path.dirname(configPath), { recursive: true, mode: 0o700 });
  writeFileSync(configPath, LEGACY, { mode: 0o600 });
});
afterEach(() => {
  pane?.kill();
  pane = undefined;
  cleanup();
});

const doctorInTerminal = (): TmuxPane => {
  pane = startTmux([process.execPath, CLI_ENTRY, "doctor"], { env: cliEnv(home), cwd: home });
  return pane;
};

describe("doctor in a terminal", () => {
  beforeAll(() =>
    expect(
      TMUX_AVAILABLE,
      "tmux is missing: install it (bash scripts/install-test-tools.sh); doctor's prompt is checked in a real terminal",
    ).toBe(true),
  );

  it("asks before applying the pending changes, and applies them on y", async () => {
    const terminal = doctorInTerminal();
    await terminal.waitFor(/Apply these 1 change\(s\) now\? \[y\/N\]/, { plain: true, what: "the question" });
    expect(terminal.capture()).toContain("channels.qqbot.streaming");
    terminal.sendKeys("y", "Enter");
    expect(await terminal.exitCode()).toBe(0);
    expect(JSON5.parse(readFileSync(configPath, "utf8")).channels.qqbot.streaming).toMatchObject({ mode: "partial" });
  }, 30_000);

  it("leaves the config as it was and exits 1 when the answer is not y", async () => {
    const terminal = doctorInTerminal();
    await terminal.waitFor(/\[y\/N\]/, { plain: true, what: "the question" });
    terminal.sendKeys("n", "Enter");
    expect(await terminal.exitCode()).toBe(1);
    expect(readFileSync(configPath, "utf8")).toBe(LEGACY);
  }, 30_000);
});
