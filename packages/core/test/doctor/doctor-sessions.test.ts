import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { makeTempHome, runCli } from "../helpers/cli.js";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

const S1 = "11111111-1111-4111-8111-111111111111";
const S2 = "22222222-2222-4222-8222-222222222222";

it("doctor --fix imports legacy sessions once, keeps the sources, and the result shows in sessions list", async () => {
  const dir = path.join(home, ".openclaw", "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "sessions.json"),
    JSON.stringify({
      "agent:main:main": { sessionId: S1, updatedAt: 1_760_000_500_000 },
      "agent:main:direct:gone": { sessionId: S2, updatedAt: 1_760_000_100_000 },
    }),
  );
  writeFileSync(
    path.join(dir, `${S1}.jsonl`),
    [
      { type: "session", version: 3, id: S1, timestamp: "2025-10-09T08:00:00.000Z", cwd: "/w" },
      { type: "message", id: "a1", parentId: null, timestamp: "2025-10-09T08:00:01.000Z", message: { role: "user", content: "hi" } },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n"),
  );
  const before = await runCli(["doctor"], { home });
  expect(before.stdout).toContain("legacy session(s)");
  expect(before.code).toBe(1);

  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.stdout).toContain("imported");
  expect(fix.code, fix.stdout).toBe(0);
  // Progress goes to stderr as plain lines when piped (a spinner only on a terminal).
  expect(fix.stderr).toContain('Importing 2 legacy session(s) of agent "main"…\n');
  expect(fix.stderr).toMatch(/Imported \d legacy session\(s\) of agent "main"\n/);
  expect(fix.stderr).not.toContain("\x1b[");

  const list = await runCli(["sessions", "list", "--json"], { home });
  expect(list.stdout).toContain("agent:main:main");

  const again = await runCli(["doctor", "--fix"], { home });
  expect(again.stdout, again.stdout).toContain("nothing to change");
  const report = await runCli(["doctor"], { home });
  expect(report.code, report.stdout).toBe(0);
});
