import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeOpenAI } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAgentStore } from "../src/sessions/index.js";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

const stateDir = () => path.join(home, ".openclaw");

function seed(agentId = "main") {
  const store = openAgentStore({ stateDir: stateDir(), agentId });
  const t = Date.UTC(2026, 0, 2, 3, 4, 5);
  const dm = store.getOrCreateSession(`agent:${agentId}:telegram:direct:42`, {
    now: t,
    origin: { chatType: "direct", channel: "telegram" },
  });
  store.appendEvents(
    dm.sessionId,
    [
      { type: "message", message: { role: "user", content: "hello there" } },
      { type: "message", message: { role: "assistant", content: [{ type: "text", text: "hi!\nHow can I help?" }] } },
    ],
    { now: t + 1000 },
  );
  store.updateEntry(`agent:${agentId}:telegram:direct:42`, { displayName: "Alice", modelOverride: "gpt-5" }, { now: t + 2000 });
  store.getOrCreateSession(`agent:${agentId}:main`, { now: t - 1000 });
  return { store, dm };
}

describe("openclaw sessions", () => {
  it("says there are no sessions yet when the database is missing, and hints at legacy files", async () => {
    const res = await runCli(["sessions", "list"], { home });
    expect(res).toMatchObject({ code: 0, stdout: "No sessions yet for agent main.\n", stderr: "" });
    const json = await runCli(["sessions", "list", "--json"], { home });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ agentId: "main", sessions: [] });
    mkdirSync(path.join(stateDir(), "agents", "main", "sessions"), { recursive: true });
    writeFileSync(path.join(stateDir(), "agents", "main", "sessions", "sessions.json"), "{}");
    const hinted = await runCli(["sessions"], { home });
    expect(hinted.code).toBe(0);
    expect(hinted.stderr).toContain("openclaw doctor --fix");
    const show = await runCli(["sessions", "show", "main", "--json"], { home });
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ entry: null, events: [] });
  });

  it("lists and shows sessions while the gateway's writer holds the database", async () => {
    const { store, dm } = seed();
    try {
      const list = await runCli(["sessions", "list"], { home });
      expect(list.code).toBe(0);
      const lines = list.stdout.trim().split("\n");
      expect(lines[0]).toMatch(/^KEY\s+SESSION ID\s+UPDATED\s+TYPE\s+EVENTS$/);
      expect(lines[1]).toMatch(new RegExp(`^agent:main:telegram:direct:42\\s+${dm.sessionId}\\s+2026-01-02T03:04:07.000Z\\s+direct\\s+3$`));
      expect(lines[2]).toMatch(/^agent:main:main\s+\S+\s+\S+\s+main\s+1$/);

      const json = JSON.parse((await runCli(["sessions", "list", "--json"], { home })).stdout);
      expect(json.sessions[0]).toEqual({
        key: "agent:main:telegram:direct:42",
        sessionId: dm.sessionId,
        kind: "direct",
        chatType: "direct",
        updatedAt: "2026-01-02T03:04:07.000Z",
        eventCount: 3,
      });

      const show = await runCli(["sessions", "show", "AGENT:MAIN:TELEGRAM:DIRECT:42"], { home });
      expect(show.code).toBe(0);
      expect(show.stdout).toContain(`session id        ${dm.sessionId}`);
      expect(show.stdout).toContain("display name      Alice");
      expect(show.stdout).toContain("Transcript (3 events):");
      expect(show.stdout).toMatch(/2\s+2026-01-02T03:04:06.000Z\s+message user: hello there/);
      expect(show.stdout).toMatch(/3\s+\S+\s+message assistant: hi! How can I help\?/);

      const showJson = JSON.parse((await runCli(["sessions", "show", "agent:main:telegram:direct:42", "--json"], { home })).stdout);
      expect(showJson).toMatchObject({ key: "agent:main:telegram:direct:42", kind: "direct", sessionId: dm.sessionId });
      expect(showJson.entry).toMatchObject({ displayName: "Alice", modelOverride: "gpt-5" });
      expect(showJson.events.map((e: { seq: number; event: { type: string } }) => [e.seq, e.event.type])).toEqual([
        [1, "session"],
        [2, "message"],
        [3, "message"],
      ]);

      const tail = await runCli(["sessions", "show", "agent:main:telegram:direct:42", "--tail", "1"], { home });
      expect(tail.stdout).toContain("Transcript (last 1 of 3 events):");
      const bare = await runCli(["sessions", "show", "main", "--json"], { home });
      expect(JSON.parse(bare.stdout).key).toBe("agent:main:main");
    } finally {
      store.close();
    }
  });

  it("defaults to the configured default agent and stays read-only", async () => {
    seed("work").store.close();
    const config = `{ agents: { entries: { main: {}, work: { default: true } } } }`;
    writeFileSync(path.join(stateDir(), "openclaw.json"), config);
    // SQLite's own -wal/-shm sidecars may appear when a reader opens the database; nothing else may.
    const files = () =>
      readdirSync(stateDir(), { recursive: true })
        .map(String)
        .filter((f) => !/-(wal|shm)$/.test(f))
        .sort();
    const before = files();
    const list = await runCli(["sessions", "list", "--json"], { home });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ agentId: "work", sessions: [{}, {}] });
    const show = await runCli(["sessions", "show", "main", "--json"], { home });
    expect(JSON.parse(show.stdout)).toMatchObject({ agentId: "work", key: "agent:work:main" });
    expect(files()).toEqual(before);
    expect(readFileSync(path.join(stateDir(), "openclaw.json"), "utf8")).toBe(config);
  });

  it("uses --agent and fails clearly for an unknown key", async () => {
    seed("work").store.close();
    const list = JSON.parse((await runCli(["sessions", "list", "--agent", "Work", "--json"], { home })).stdout);
    expect(list.agentId).toBe("work");
    expect(list.sessions).toHaveLength(2);
    const missing = await runCli(["sessions", "show", "agent:work:nope", "--agent", "work"], { home });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain('Agent work has no session with key "agent:work:nope"');
    expect(missing.stderr).toContain("openclaw sessions list --agent work");
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it("compact --local runs the flush and the summary; show marks the compaction and the flush turn", async () => {
    const fake = await startFakeOpenAI();
    try {
      mkdirSync(stateDir(), { recursive: true });
      writeFileSync(
        path.join(stateDir(), "openclaw.json"),
        JSON.stringify({
          agents: { defaults: { model: "local/fake-model" } },
          models: { providers: { local: { baseUrl: fake.baseUrl, models: [{ id: "fake-model" }] } } },
        }),
      );
      const { store, dm } = seed();
      store.appendEvents(dm.sessionId, [
        { type: "message", message: { role: "user", content: "my locker code is 4417" } },
        { type: "message", message: { role: "assistant", content: [{ type: "text", text: "Got it." }] } },
      ]);
      store.close();
      const key = "agent:main:telegram:direct:42";

      const viaGateway = await runCli(["sessions", "compact", key], { home });
      expect(viaGateway.code).toBe(1);
      expect(viaGateway.stderr).toContain("No gateway is running");

      const compacted = await runCli(["sessions", "compact", key, "--local"], { home });
      expect(compacted.code, compacted.stderr).toBe(0);
      expect(compacted.stdout).toMatch(
        new RegExp(`^${key}: Compacted: \\d+ older message\\(s\\) are now a summary; \\d+ recent message\\(s\\) kept\\.`),
      );
      expect(fake.requests.map((r) => JSON.stringify(r.body.messages))).toEqual([
        expect.stringContaining("[Memory flush"),
        expect.stringContaining("my locker code is 4417"),
      ]);

      const show = await runCli(["sessions", "show", key], { home });
      expect(show.code).toBe(0);
      expect(show.stdout).toContain("  compactions       1");
      expect(show.stdout).toMatch(/message user \[memory-flush\]: \[Memory flush/);
      expect(show.stdout).toMatch(
        /==== compaction \(manual\): \d+ messages summarized, about \d+ -> \d+ tokens; kept from #\d+ ====\n\s+summary: /,
      );

      const again = JSON.parse((await runCli(["sessions", "compact", key, "--local", "--json"], { home })).stdout);
      expect(again).toMatchObject({ agentId: "main", sessionKey: key });
    } finally {
      await fake.close();
    }
  });
});
