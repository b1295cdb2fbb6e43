import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { makeTempHome, runCli } from "../helpers/cli.js";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

it("doctor --fix imports legacy workspace state and .attested files, verifies them, removes the sources", async () => {
  const stateDir = path.join(home, ".openclaw");
  const ws = path.join(stateDir, "workspace");
  mkdirSync(path.join(ws, ".openclaw"), { recursive: true });
  writeFileSync(path.join(ws, "AGENTS.md"), "# rules\n");
  const globalFile = path.join(stateDir, "workspace-state.json");
  writeFileSync(
    globalFile,
    JSON.stringify({
      workspaces: { [ws]: { bootstrapSeededAt: "2026-05-01T10:00:00.000Z", setupCompletedAt: "2026-05-02T10:00:00.000Z" } },
    }),
  );
  const attested = path.join(ws, ".openclaw", ".attested");
  const hash = createHash("sha256").update("x").digest("hex");
  writeFileSync(attested, JSON.stringify({ attestedAtMs: 1_777_000_000_000, generatedHashes: { "SOUL.md": hash } }));

  const report = await runCli(["doctor"], { home });
  expect(report.stdout).toContain(globalFile);
  expect(existsSync(globalFile)).toBe(true);

  const fix = await runCli(["doctor", "--fix"], { home });
  expect(fix.code, fix.stdout + fix.stderr).toBe(0);
  expect(fix.stdout).toContain("imported");
  expect(existsSync(globalFile)).toBe(false);
  expect(existsSync(attested)).toBe(false);

  const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"), { readonly: true });
  const tables = db.prepare("select name from sqlite_master where type='table'").all() as { name: string }[];
  const dump = tables.map((t) => JSON.stringify(db.prepare(`select * from "${t.name}"`).all())).join("\n");
  db.close();
  expect(dump).toContain("2026-05-02T10:00:00.000Z");
  expect(dump).toContain(hash);

  const again = await runCli(["doctor", "--fix"], { home });
  expect(again.stdout).toContain("nothing to change");
});
