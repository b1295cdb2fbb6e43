// `openclaw memory index`: re-indexes an agent's memory files with progress (plain lines when
// piped) and says what changed; a second run finds nothing to do.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-memory-cli-"));
});
afterEach(() => cleanup());

describe("openclaw memory index", () => {
  it("indexes the memory files, showing progress on stderr, then finds them unchanged", async () => {
    const ws = path.join(home, "ws");
    mkdirSync(path.join(ws, "memory"), { recursive: true });
    writeFileSync(path.join(ws, "MEMORY.md"), "# Facts\n\nThe owner likes green tea.\n");
    writeFileSync(path.join(ws, "memory", "2026-11-30.md"), "Met Alice about the garden.\n");
    mkdirSync(path.join(home, ".openclaw"), { recursive: true });
    writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ agents: { defaults: { workspace: ws } } }));

    const first = await runCli(["memory", "index"], { home });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("2 file(s) indexed, 0 removed, 0 unchanged.");
    expect(first.stderr).toContain('Indexing the memory files of agent "main"…\n');
    expect(first.stderr).toContain('  Indexing the memory files of agent "main": 2/2\n');
    expect(first.stderr).toContain('Indexed 2 memory file(s) of agent "main"\n');
    expect(first.stderr).not.toContain("\x1b[");

    const again = await runCli(["memory", "index"], { home });
    expect(again.stdout).toContain("0 file(s) indexed, 0 removed, 2 unchanged.");
  }, 30_000);
});
