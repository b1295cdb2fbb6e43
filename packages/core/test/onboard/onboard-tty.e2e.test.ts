// Issue 18 "done when": a new user in a real terminal (tmux: keys typed, screen read) goes from an
// empty state folder through `openclaw onboard` (a custom OpenAI-compatible provider pointing at
// the fake model, the key checked; Telegram through the fake Bot API, the token checked with
// getMe) to a running gateway that answers a DM. Ctrl-C in the middle leaves nothing written.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, makeTempHome, startGatewayCli, type GatewayCliProcess } from "../helpers/cli.js";
import { plainText, startTmux, TMUX_AVAILABLE, type TmuxPane } from "../helpers/tmux.js";
import { decodeTerminalQrs } from "../helpers/terminal-qr.js";
import { cleanEnv, configExists, fakeSets, LLM_KEY, mode, OWNER, readConfig, startFakes, type Fakes } from "./helpers.js";

const LINKCHAT = fileURLToPath(new URL("../fixtures/plugins/linkchat", import.meta.url));
const { QR_CODES } = (await import(pathToFileURL(path.join(LINKCHAT, "index.js")).href)) as { QR_CODES: string[] };

let home: string;
let cleanup: () => void;
let fakes: Fakes;
let pane: TmuxPane | undefined;
let gateway: GatewayCliProcess | undefined;

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome("openclaw-onboard-tty-"));
  fakes = await startFakes();
});
afterEach(async () => {
  pane?.kill();
  pane = undefined;
  if (gateway) {
    gateway.child.kill("SIGTERM");
    await gateway.exited;
    gateway = undefined;
  }
  await fakes.close();
  cleanup();
});

/** The screen as text, colours and cursor moves removed. */
const screen = (t: TmuxPane) => plainText(t.capture());

/** Waits until `pattern` has appeared `times` times on the screen (earlier prompts stay visible). */
const waitScreen = (t: TmuxPane, pattern: RegExp, times = 1) => t.waitFor(pattern, { times, plain: true, timeoutMs: 30_000 });

const type = (t: TmuxPane, text: string) => t.sendKeys("-l", text);

/** Answers the provider questions (the fake model behind a custom endpoint) and the workspace's. */
async function answerProvider(t: TmuxPane): Promise<void> {
  await waitScreen(t, /Model provider/);
  for (let i = 0; i < 7; i++) t.sendKeys("Down"); // … Qwen, Other OpenAI-compatible endpoint
  t.sendKeys("Enter");
  await waitScreen(t, /A short id for this provider/);
  t.sendKeys("Enter"); // "custom"
  await waitScreen(t, /Base URL of the OpenAI-compatible API/);
  type(t, fakes.llm.baseUrl);
  t.sendKeys("Enter");
  await waitScreen(t, /API key/);
  type(t, LLM_KEY);
  t.sendKeys("Enter");
  await waitScreen(t, /answered \(2 models\)/);
  await waitScreen(t, /Default model/);
  t.sendKeys("Down", "Enter"); // fake-pro
  await waitScreen(t, /Workspace folder/);
  t.sendKeys("Enter");
}

/** Answers every question up to the bot token prompt, as a user would. */
async function answerUpToToken(t: TmuxPane): Promise<void> {
  await answerProvider(t);
  await waitScreen(t, /Channels to connect/);
  t.sendKeys("Space", "Enter"); // Telegram, the installed one, comes first
  await waitScreen(t, /Who may message the bot directly\?/);
  t.sendKeys("Down", "Enter"); // allowlist
  await waitScreen(t, /Sender ids allowed/);
  type(t, String(OWNER.id));
  t.sendKeys("Enter");
  await waitScreen(t, /Telegram botToken/);
}

function runOnboard(sets = fakeSets(fakes.tg)): TmuxPane {
  pane = startTmux([process.execPath, CLI_ENTRY, "onboard", ...sets], { env: cleanEnv(home), cwd: home });
  return pane;
}

describe("openclaw onboard in a terminal", () => {
  // A missing tool fails the run instead of skipping it: CI must exercise these.
  beforeAll(() => expect(TMUX_AVAILABLE, "tmux is missing: install it (bash scripts/install-test-tools.sh)").toBe(true));

  it("from nothing to a gateway that answers a DM through the fake Bot API with the fake model", async () => {
    const t = runOnboard();
    await answerUpToToken(t);
    type(t, fakes.tg.token);
    t.sendKeys("Enter");
    await waitScreen(t, new RegExp(`answered as @${fakes.tg.botUser.username}`));
    const after = await waitScreen(t, /Done\.|Install the gateway as a service/);
    if (/Install the gateway as a service/.test(after) && !/Done\./.test(after)) t.sendKeys("Right", "Enter"); // not in a test
    expect(await t.exitCode()).toBe(0);
    const shown = screen(t);
    if (process.env.DEBUG_ONBOARD) console.log(shown);
    expect(shown).not.toContain(LLM_KEY);
    expect(shown).not.toContain(fakes.tg.token);

    const config = readConfig(home);
    expect(config.agents.defaults.model).toBe("custom/fake-pro");
    expect(config.models.providers.custom).toEqual({ baseUrl: fakes.llm.baseUrl, apiKey: LLM_KEY });
    expect(config.channels.telegram).toMatchObject({ dmPolicy: "allowlist", allowFrom: [String(OWNER.id)] });
    expect(mode(path.join(home, ".openclaw", "openclaw.json"))).toBe(0o600);
    expect(mode(config.channels.telegram.tokenFile)).toBe(0o600);
    expect(existsSync(path.join(home, ".openclaw", "workspace", "AGENTS.md"))).toBe(true);

    gateway = await startGatewayCli({ home, env: cleanEnv(home) });
    await fakes.tg.waitFor(() => fakes.tg.isPolling, 20_000);
    fakes.llm.enqueue([{ text: "Hello from the fake model." }]);
    fakes.tg.sendUserMessage({ chat: { id: OWNER.id, type: "private" }, from: OWNER, text: "hi there" });
    const bot = fakes.tg.botUser.id;
    await fakes.tg.waitFor(
      () => fakes.tg.chat(OWNER.id).some((m) => m.from?.id === bot && m.text === "Hello from the fake model."),
      20_000,
    );
    expect(fakes.llm.lastRequest()?.body.model).toBe("fake-pro");
  }, 120_000);

  it("a channel that links by QR code shows the code right after the config is saved, then finishes", async () => {
    const t = runOnboard(["--set", `plugins.load.paths=${JSON.stringify([LINKCHAT])}`]);
    await answerProvider(t);
    await waitScreen(t, /Channels to connect/);
    t.sendKeys("Space", "Enter"); // linkchat, the installed one
    await waitScreen(t, /Who may message the bot directly\?/);
    t.sendKeys("Enter"); // pairing
    await waitScreen(t, /Link linkchat now/);
    expect(readConfig(home).channels.linkchat).toEqual({ dmPolicy: "pairing" });
    t.sendKeys("Enter");
    await waitScreen(t, /Linked as \+15550001111\./);
    const after = await waitScreen(t, /Done\.|Install the gateway as a service/);
    if (/Install the gateway as a service/.test(after) && !/Done\./.test(after)) t.sendKeys("Right", "Enter");
    expect(await t.exitCode()).toBe(0);
    expect(decodeTerminalQrs(t.capture())).toEqual(QR_CODES);
  }, 90_000);

  it("Ctrl-C at the last question exits 130 and leaves no config and no secret behind", async () => {
    const t = runOnboard();
    await answerUpToToken(t);
    type(t, fakes.tg.token.slice(0, 5));
    t.sendKeys("C-c");
    expect(await t.exitCode()).toBe(130);
    expect(screen(t)).toContain("Onboarding cancelled; nothing was written.");
    expect(configExists(home)).toBe(false);
    expect(existsSync(path.join(home, ".openclaw", "secrets"))).toBe(false);
    expect(existsSync(path.join(home, ".openclaw", "workspace"))).toBe(false);
  }, 90_000);
});
