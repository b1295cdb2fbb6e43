// Issue 15 "done when" (heartbeat): the real gateway with the Telegram plugin against the fake
// Bot API and a fake model; heartbeat every 1 s with target "last". One run delivers text to the
// chat that last wrote, the next acks with HEARTBEAT_OK and sends nothing. HEARTBEAT.md is in the
// heartbeat runs' prompt only. Waits on the gateway's "heartbeat" events, never on fixed sleeps.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lastUserText, startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayClient, type Gateway } from "../../src/gateway/index.js";
import type { HeartbeatRunEvent, HeartbeatStatusEntry } from "../../src/scheduler/index.js";
import { runCli } from "../helpers/cli.js";
import { botTexts, startTelegramGateway } from "../telegram/harness.js";

let home: string;
let llm: FakeModelServer;
let tg: FakeTelegram;
let gateway: Gateway | undefined;
let client: GatewayClient | undefined;

const OWNER = { id: 4242, first_name: "Owner", username: "owner" };
const PROMPT = "Heartbeat: check HEARTBEAT.md.";
const MARKER = "Remind the owner to water the plants.";

/** Resolves with the first "heartbeat" event from now on that matches (rejects after 15 s). */
function waitForHeartbeat(control: GatewayClient) {
  return (match: (event: HeartbeatRunEvent) => boolean): Promise<HeartbeatRunEvent> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error("no matching heartbeat event within 15 s"));
      }, 15_000);
      const stop = control.onEvent((frame) => {
        if (frame.event !== "heartbeat" || !match(frame.payload as HeartbeatRunEvent)) return;
        clearTimeout(timer);
        stop();
        resolve(frame.payload as HeartbeatRunEvent);
      });
    });
}

beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-heartbeat-e2e-"));
  mkdirSync(path.join(home, "ws"), { recursive: true });
  writeFileSync(path.join(home, "ws", "HEARTBEAT.md"), `# Checklist\n\n- ${MARKER}\n`);
  llm = await startFakeOpenAI();
  tg = await startFakeTelegram();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await gateway?.stop({ timeoutMs: 2000 });
  gateway = undefined;
  await tg.close();
  await llm.close();
  rmSync(home, { recursive: true, force: true });
});

describe("heartbeat through a real gateway", () => {
  it("delivers one run's text to the last contact and acks the next silently", async () => {
    // Heartbeat turns answer HEARTBEAT_OK (alone or with a short remark) until the test arms one
    // reminder; people get "Hi!".
    let remind = false;
    llm.setResponder((request) => {
      if (lastUserText(request) !== PROMPT) return [{ text: "Hi!" }];
      if (!remind) return [{ text: llm.requests.length % 2 ? "HEARTBEAT_OK" : "Quiet. HEARTBEAT_OK" }];
      remind = false;
      return [{ text: "HEARTBEAT_OK\n\nTime to water the plants." }];
    });
    gateway = await startTelegramGateway({
      home,
      llm,
      tg,
      allowFrom: [OWNER.id],
      // Past ackMaxChars, text beside the token is delivered (without the token).
      agentDefaults: { heartbeat: { every: "1s", target: "last", prompt: PROMPT, ackMaxChars: 10 } },
    });
    client = await GatewayClient.connect(gateway.url, { ...(gateway.token ? { token: gateway.token } : {}) });
    const heartbeatEvent = waitForHeartbeat(client);

    // The owner writes: the chat becomes the agent's last contact.
    tg.sendUserMessage({ chat: { id: OWNER.id, type: "private" }, from: OWNER, text: "hello" });
    await tg.waitFor(() => botTexts(tg, OWNER.id)[0], 15_000);

    remind = true;
    const delivered = await heartbeatEvent((e) => e.status === "delivered");
    const ack = await heartbeatEvent((e) => e.status === "ack" && e.startedAt >= delivered.finishedAt);
    expect(ack.agentId).toBe("main");
    // The ack sent nothing; the reminder arrived once, without the token.
    expect(botTexts(tg, OWNER.id)).toEqual(["Hi!", "Time to water the plants."]);

    // HEARTBEAT.md is in the heartbeat turns' Project Context only.
    const systemOf = (r: (typeof llm.requests)[number]) =>
      JSON.stringify(r.body.messages.filter((m: { role: string }) => m.role === "system"));
    const heartbeatCalls = llm.requests.filter((r) => lastUserText(r) === PROMPT);
    const userCall = llm.requests.find((r) => lastUserText(r) === "hello")!;
    expect(heartbeatCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of heartbeatCalls) expect(systemOf(call)).toContain(MARKER);
    expect(systemOf(userCall)).not.toContain(MARKER);

    const { heartbeat } = await client.request<{ heartbeat: HeartbeatStatusEntry[] }>("heartbeat.status");
    expect(heartbeat).toHaveLength(1);
    expect(heartbeat[0]).toMatchObject({ agentId: "main", every: "1s", target: "last" });
    expect(heartbeat[0]!.lastRunAt).toBeGreaterThanOrEqual(ack.startedAt);
  }, 60_000);

  it("heartbeat.now runs one at once; status reports the heartbeat", async () => {
    llm.setResponder(() => [{ text: "HEARTBEAT_OK" }]);
    gateway = await startTelegramGateway({
      home,
      llm,
      tg,
      allowFrom: [OWNER.id],
      agentDefaults: { heartbeat: { every: "1h", target: "none", prompt: PROMPT } },
    });
    client = await GatewayClient.connect(gateway.url, { ...(gateway.token ? { token: gateway.token } : {}) });
    const event = await client.request<HeartbeatRunEvent>("heartbeat.now", {});
    expect(event).toMatchObject({ agentId: "main", status: "ack", manual: true });
    expect(llm.requests).toHaveLength(1);
    const status = await client.request<{ heartbeat: HeartbeatStatusEntry[] }>("status");
    expect(status.heartbeat[0]).toMatchObject({ agentId: "main", lastStatus: "ack", lastRunAt: event.startedAt });
    // The next run counts from this one.
    expect(status.heartbeat[0]!.nextRunAt).toBe(event.finishedAt + 3_600_000);
    await expect(client.request("heartbeat.now", { agentId: "nobody" })).rejects.toThrow(/nobody/);

    // The CLI: `openclaw heartbeat now` and the heartbeat in `openclaw status`.
    const env = { OPENCLAW_STATE_DIR: home, OPENCLAW_CONFIG_PATH: path.join(home, "openclaw.json") };
    const now = await runCli(["heartbeat", "now"], { home, env });
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toMatch(/^Heartbeat of agent main: nothing to report \(HEARTBEAT_OK\): nothing was sent \(\d+\.\d s\)\n$/);
    expect(llm.requests).toHaveLength(2);
    const printed = await runCli(["status"], { home, env });
    expect(printed.stdout).toMatch(/\nHeartbeat:\n {2}main: every 1h -> none; last \S+ ago \(ack\); next in 59m \d+s\n/);
  }, 60_000);
});
