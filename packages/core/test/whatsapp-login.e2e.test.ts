// Linking WhatsApp as a user does, with the real CLI and gateway processes and the fake WhatsApp
// of @openclaw/testkit behind its relay (packages/testkit/whatsapp-fixture-plugin): status says the
// account needs linking, the QR code shows in a terminal (tmux), the phone scans it, the running
// gateway picks the link up, a restarted one connects with the saved auth state (no new QR code)
// and answers a DM, and logout removes the state.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeModelServer, startFakeOpenAI } from "@openclaw/testkit";
import { type FakeWhatsAppServer, startFakeWhatsAppServer } from "@openclaw/testkit/whatsapp";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, cliEnv, type GatewayCliProcess, makeTempHome, runCli, startGatewayCli } from "./helpers/cli.js";
import { decodeTerminalQrs } from "./helpers/terminal-qr.js";
import { startTmux, TMUX_AVAILABLE, type TmuxPane } from "./helpers/tmux.js";

const FIXTURE_PLUGIN = fileURLToPath(new URL("../../testkit/whatsapp-fixture-plugin", import.meta.url));
const NUMBER = "+15550001111";

let home: string;
let cleanup: () => void;
let wa: FakeWhatsAppServer;
let model: FakeModelServer;
let pane: TmuxPane | undefined;
let gateway: ChildProcess | undefined;

function baseEnv(): Record<string, string> {
  return cliEnv(home, { OPENCLAW_FAKE_WHATSAPP_URL: wa.url });
}

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome("openclaw-wa-login-"));
  wa = await startFakeWhatsAppServer({ linkedNumber: NUMBER });
  model = await startFakeOpenAI();
  mkdirSync(path.join(home, ".openclaw"));
  writeFileSync(
    path.join(home, ".openclaw", "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-test", models: [{ id: "llama" }] } } },
      plugins: { load: { paths: [FIXTURE_PLUGIN] } },
      channels: { whatsapp: { dmPolicy: "open", allowFrom: ["*"] } },
    }),
  );
});
afterEach(async () => {
  pane?.kill();
  pane = undefined;
  if (gateway && gateway.exitCode === null) gateway.kill("SIGKILL");
  gateway = undefined;
  await wa.close();
  await model.close();
  cleanup();
});

/** `openclaw gateway --port 0` with the fake WhatsApp's URL; resolves once it listens. */
async function startGateway(): Promise<GatewayCliProcess> {
  const started = await startGatewayCli({ home, env: { OPENCLAW_FAKE_WHATSAPP_URL: wa.url } });
  gateway = started.child;
  return started;
}

/** Polls `channels status --json` until the WhatsApp account is connected as the linked number. */
async function waitConnected(): Promise<void> {
  for (;;) {
    const json = await runCli(["channels", "status", "--json"], { home });
    const account = JSON.parse(json.stdout).channels[0]?.accounts[0];
    if (account?.state === "connected") {
      expect(account.identity).toBe(NUMBER);
      return;
    }
  }
}

describe("WhatsApp through the real CLI", () => {
  // A missing tool fails the run instead of skipping it: CI must exercise these.
  beforeAll(() =>
    expect(TMUX_AVAILABLE, "tmux is missing: install it (apt install tmux); the QR code is checked in a real terminal").toBe(true),
  );
  it("login shows the QR code in the terminal, the phone scans it, the gateway reuses the link and answers; logout removes it", async () => {
    const { phone } = wa.fake;
    const credentials = path.join(home, ".openclaw", "credentials", "whatsapp", "default");

    // Before linking, channels status says what to run.
    const first = await startGateway();
    let status = "";
    for (;;) {
      status = (await runCli(["channels", "status"], { home, env: { OPENCLAW_FAKE_WHATSAPP_URL: wa.url } })).stdout;
      if (status.includes("needs linking")) break;
    }
    expect(status).toContain("  default: needs linking: run `openclaw channels login whatsapp`");

    pane = startTmux([process.execPath, CLI_ENTRY, "channels", "login", "whatsapp"], { env: baseEnv(), cwd: home });
    await phone.waitFor(() => phone.currentQr !== undefined, 20_000);
    const shown = phone.currentQr!;
    const screen = await pane.waitFor(/Scan this QR code with WhatsApp/, { what: "the QR code" });
    await pane.waitFor(/▀/, { what: "the drawn QR code" });
    expect(decodeTerminalQrs(pane.capture())).toContain(shown);
    expect(screen).not.toMatch(/\n\s+at /);
    phone.scanQr();
    expect(await pane.exitCode()).toBe(0);
    expect(pane.capture()).toContain(`Linked as ${NUMBER}.`);
    expect(pane.capture()).toContain("A gateway is running on this state folder");
    expect(existsSync(path.join(credentials, "creds.json"))).toBe(true);
    const qrsShown = phone.qrs.length;

    // The running gateway picks up the link by itself; after a restart it connects with the saved
    // auth state (no QR code) and answers a DM.
    await waitConnected();
    gateway!.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const gw = await startGateway();
    await waitConnected();
    expect(phone.qrs.length).toBe(qrsShown);
    model.enqueue([{ text: "Hello from the agent." }]);
    phone.userSends({ from: "+15552223333", text: "hi agent" });
    await phone.waitFor(() => phone.sent("+15552223333").some((m) => m.text === "Hello from the agent."), 20_000);
    gateway!.kill("SIGTERM");
    expect(await gw.exited).toBe(0);
    gateway = undefined;

    const logout = await runCli(["channels", "logout", "whatsapp"], { home, env: { OPENCLAW_FAKE_WHATSAPP_URL: wa.url } });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toMatch(/Logged out whatsapp:default; removed \d+ files? from /);
    expect(logout.stdout).toContain("  creds.json\n");
    expect(existsSync(path.join(credentials, "creds.json"))).toBe(false);
    expect(phone.linked).toBe(false); // unlinked on WhatsApp's side too
    expect(readdirSync(credentials).filter((f) => f.startsWith("creds"))).toEqual([]);
  }, 120_000);
});
