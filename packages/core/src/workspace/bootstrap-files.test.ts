import { mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadWorkspaceBootstrapFiles } from "./index.js";

let ws: string;
beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "openclaw-bootstrap-"));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const contentOf = async (name: string) => (await loadWorkspaceBootstrapFiles(ws)).find((f) => f.name === name);

describe("loadWorkspaceBootstrapFiles across turns (files are cached while unchanged)", () => {
  it("sees a file rewritten with the same size and the same mtime", async () => {
    const file = path.join(ws, "AGENTS.md");
    writeFileSync(file, "rule one\n");
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect((await contentOf("AGENTS.md"))?.content).toBe("rule one\n");
    writeFileSync(file, "rule two\n");
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect((await contentOf("AGENTS.md"))?.content).toBe("rule two\n");
  });

  it("sees a file replaced by a rename, and optional files appearing and going away", async () => {
    writeFileSync(path.join(ws, "SOUL.md"), "calm\n");
    expect((await contentOf("SOUL.md"))?.content).toBe("calm\n");
    expect(await contentOf("MEMORY.md")).toBeUndefined();
    writeFileSync(path.join(ws, "SOUL.tmp"), "loud\n");
    renameSync(path.join(ws, "SOUL.tmp"), path.join(ws, "SOUL.md"));
    writeFileSync(path.join(ws, "MEMORY.md"), "remember\n");
    expect((await contentOf("SOUL.md"))?.content).toBe("loud\n");
    expect((await contentOf("MEMORY.md"))?.content).toBe("remember\n");
    unlinkSync(path.join(ws, "MEMORY.md"));
    unlinkSync(path.join(ws, "SOUL.md"));
    expect(await contentOf("MEMORY.md")).toBeUndefined();
    expect(await contentOf("SOUL.md")).toMatchObject({ missing: true });
  });

  it("sees a required file created after a turn found it missing", async () => {
    expect(await contentOf("USER.md")).toMatchObject({ missing: true });
    writeFileSync(path.join(ws, "USER.md"), "Ada\n");
    expect((await contentOf("USER.md"))?.content).toBe("Ada\n");
  });
});
