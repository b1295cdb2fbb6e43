import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openAgentStore, openAgentStoreReadOnly } from "../src/sessions/index.js";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const child = fileURLToPath(new URL("./fixtures/sessions-append-child.mjs", import.meta.url));
const distEntry = path.join(coreDir, "dist", "sessions", "index.js");

/** The child imports the built store; build it when it is missing or older than the sources. */
function ensureBuilt(): void {
  const srcDir = path.join(coreDir, "src", "sessions");
  const stale = () =>
    !existsSync(distEntry) ||
    readdirSync(srcDir)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .some((f) => {
        const js = path.join(coreDir, "dist", "sessions", f.replace(/\.ts$/, ".js"));
        return !existsSync(js) || statSync(js).mtimeMs < statSync(path.join(srcDir, f)).mtimeMs;
      });
  if (!stale()) return;
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", path.join(coreDir, "tsconfig.json")], { cwd: coreDir, stdio: "pipe" });
  } catch {
    // tsc exits non-zero for type errors elsewhere but still emits; the check below decides.
  }
  if (stale()) {
    throw new Error(`The built session store is missing or stale at ${distEntry}; run \`pnpm --filter @openclaw/core build\`.`);
  }
}

function run(stateDir: string, mode: "append" | "open", killAfterAcks?: number) {
  return new Promise<{ acked: string[]; lines: string[]; signal: NodeJS.Signals | null; code: number | null; stderr: string }>(
    (resolve, reject) => {
      const proc = spawn(process.execPath, [child, stateDir, mode], { stdio: ["ignore", "pipe", "pipe"] });
      const acked: string[] = [];
      const lines: string[] = [];
      let buf = "";
      let stderr = "";
      proc.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      proc.stdout.setEncoding("utf8").on("data", (d: string) => {
        buf += d;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          lines.push(line);
          if (line.startsWith("ack ")) {
            acked.push(line.slice(4));
            if (killAfterAcks !== undefined && acked.length === killAfterAcks) proc.kill("SIGKILL");
          }
        }
      });
      proc.on("error", reject);
      proc.on("close", (code, signal) => resolve({ acked, lines, signal, code, stderr }));
    },
  );
}

let stateDir: string;
beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-crash-"));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

describe("session store crash safety", () => {
  it("keeps every acknowledged event and a consistent tree when the writer is SIGKILLed mid-loop", async () => {
    const result = await run(stateDir, "append", 400);
    expect(result.stderr).toBe("");
    expect(result.signal).toBe("SIGKILL");
    const sessionLine = result.lines.find((l) => l.startsWith("session "));
    expect(sessionLine).toBeDefined();
    const sessionId = sessionLine!.slice("session ".length);
    expect(result.acked.length).toBeGreaterThanOrEqual(400);

    // The OS released the dead writer's lock: a new writer opens at once, and sees a sound file.
    const writer = openAgentStore({ stateDir, agentId: "crash" });
    const db = new Database(writer.path, { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();

    const events = writer.readEvents(sessionId);
    const ids = new Set(events.map((e) => e.event.id));
    for (const id of result.acked) expect(ids.has(id), `acknowledged event ${id} is missing`).toBe(true);
    // Dense seqs, the header first and the only root, and every parent stored earlier in the session.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]!.event).toMatchObject({ type: "session", id: sessionId });
    const seen = new Set<string>();
    let roots = 0;
    for (const { event } of events) {
      if (event.parentId === undefined || event.parentId === null) roots++;
      else expect(seen.has(event.parentId), `parent ${event.parentId} of ${event.id}`).toBe(true);
      seen.add(event.id);
    }
    expect(roots).toBe(1);
    expect(events.some((e, i) => i > 1 && e.event.parentId !== events[i - 1]!.event.id)).toBe(true);

    // Appending goes on from where the dead writer stopped.
    const next = writer.appendEvent(sessionId, { type: "message", message: { role: "user", content: "after crash" } });
    expect(next).toMatchObject({ seq: events.length + 1, parentId: events[events.length - 1]!.event.id });
    writer.close();
  });

  it("refuses a second writer process while one is open, and lets readers in", async () => {
    const writer = openAgentStore({ stateDir, agentId: "crash" });
    writer.getOrCreateSession("agent:crash:main");
    const second = await run(stateDir, "open");
    expect(second.lines[0]).toMatch(/^refused StoreLockedError: .*openclaw-agent\.sqlite is already open for writing by process \d+/);
    const reader = openAgentStoreReadOnly({ stateDir, agentId: "crash" });
    expect(reader?.listSessions().map((s) => s.key)).toEqual(["agent:crash:main"]);
    reader?.close();
    writer.close();
    expect((await run(stateDir, "open")).lines[0]).toBe("opened");
  });
});
