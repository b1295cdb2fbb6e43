import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeCtx, makeSandbox, type TestSandbox } from "../tools/__fixtures__/context.js";
import { createMemoryGetTool, createMemorySearchTool, type ToolContext } from "../tools/index.js";
import { chunkMarkdown, dailyMemoryFiles, memoryIndexPath, searchMemory, toFtsQuery } from "./index.js";

let box: TestSandbox;
let ctx: ToolContext;
const search = createMemorySearchTool();
const get = createMemoryGetTool();
const ws = (rel: string) => path.join(box.ws, rel);

beforeEach(() => {
  box = makeSandbox();
  ctx = makeCtx(box, { agentId: "Work" });
  mkdirSync(ws("memory"));
  writeFileSync(
    ws("MEMORY.md"),
    [
      "# People",
      "",
      "Alice prefers tea over coffee.",
      "Bob is allergic to peanuts.",
      "",
      "# Projects",
      "",
      "The garden project uses raised beds and drip irrigation.",
    ].join("\n"),
  );
  writeFileSync(
    ws("memory/2025-03-01.md"),
    ["# March 1", "", "Discussed the irrigation timer with Alice.", "Alice wants the drip irrigation to run at dawn."].join("\n"),
  );
  writeFileSync(ws("memory/recipes.md"), "Peanut sauce: peanuts, lime, chili.\n");
  writeFileSync(ws("NOTES.md"), "irrigation irrigation irrigation (not a memory file)\n");
});
afterEach(() => box.cleanup());

describe("memory_search", () => {
  it("ranks the chunks matching most terms first, with path and line range", async () => {
    const hits = await searchMemory({ workspaceDir: box.ws, stateDir: box.stateDir, agentId: "Work", query: "Alice drip irrigation" });
    expect(hits[0]).toMatchObject({ path: "memory/2025-03-01.md", startLine: 1, endLine: 4 });
    expect(hits.map((h) => h.path)).toContain("MEMORY.md");
    expect(hits.map((h) => h.path)).not.toContain("NOTES.md");
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    const garden = hits.find((h) => h.snippet.includes("garden"))!;
    expect(garden).toMatchObject({ path: "MEMORY.md", startLine: 6, endLine: 8 });
  });

  it("stores the index per agent under the state dir", async () => {
    await search.execute({ query: "tea" }, ctx);
    expect(existsSync(memoryIndexPath(box.stateDir, "Work"))).toBe(true);
    expect(memoryIndexPath(box.stateDir, "Work")).toBe(path.join(box.stateDir, "agents", "work", "agent", "memory-index.sqlite"));
  });

  it("reindexes edited files and drops deleted ones before searching", async () => {
    expect((await search.execute({ query: "kayak" }, ctx)).content).toBe('No memory matches "kayak".');
    writeFileSync(ws("MEMORY.md"), "# People\n\nAlice bought a kayak last week.\n");
    const after = await search.execute({ query: "kayak" }, ctx);
    expect(after.content).toMatch(/^1\. MEMORY\.md:1-3 \(score [\d.]+\)\n# People\n\nAlice bought a kayak last week\.$/);
    expect((await search.execute({ query: "coffee" }, ctx)).content).toContain("No memory matches");

    rmSync(ws("memory/recipes.md"));
    expect((await search.execute({ query: "peanut sauce lime" }, ctx)).content).toContain("No memory matches");
    writeFileSync(ws("memory/new-note.md"), "Lime trees need frost cover.\n");
    expect((await search.execute({ query: "lime" }, ctx)).content).toContain("memory/new-note.md:1-1");
  });

  it("stems words and ignores FTS syntax in queries", async () => {
    expect((await search.execute({ query: "preferring" }, ctx)).content).toContain("Alice prefers tea");
    expect((await search.execute({ query: 'tea" OR NEAR(' }, ctx)).isError).toBeFalsy();
    expect(toFtsQuery("  -- !! ")).toBeUndefined();
    expect(toFtsQuery('a "b" a')).toBe('"a" OR "b"');
  });

  it("skips memory files that are symlinks out of the workspace", async () => {
    writeFileSync(path.join(box.outside, "leak.md"), "zebra secret\n");
    symlinkSync(path.join(box.outside, "leak.md"), ws("memory/leak.md"));
    expect((await search.execute({ query: "zebra" }, ctx)).content).toContain("No memory matches");
  });
});

describe("memory_get", () => {
  it("reads a whole memory file or a line range", async () => {
    const all = await get.execute({ path: "memory/2025-03-01.md" }, ctx);
    expect(all.content).toBe(
      "memory/2025-03-01.md lines 1-4 of 4\n\n# March 1\n\nDiscussed the irrigation timer with Alice.\nAlice wants the drip irrigation to run at dawn.",
    );
    const part = await get.execute({ path: "MEMORY.md", from: 3, lines: 2 }, ctx);
    expect(part.content).toBe("MEMORY.md lines 3-4 of 8\n\nAlice prefers tea over coffee.\nBob is allergic to peanuts.");
    expect((await get.execute({ path: "./MEMORY.md", from: 50 }, ctx)).content).toContain("no lines from 50");
  });

  it("refuses paths outside MEMORY.md and memory/*.md", async () => {
    writeFileSync(path.join(box.outside, "leak.md"), "secret\n");
    symlinkSync(path.join(box.outside, "leak.md"), ws("memory/leak.md"));
    for (const p of ["NOTES.md", "../outside/leak.md", "memory/../NOTES.md", path.join(box.ws, "MEMORY.md"), "memory/x.txt"]) {
      const res = await get.execute({ path: p }, ctx);
      expect(res.isError, p).toBe(true);
      expect(res.content, p).toContain("memory_get reads only MEMORY.md and memory/*.md");
    }
    const link = await get.execute({ path: "memory/leak.md" }, ctx);
    expect(link.content).toContain("outside the workspace");
    expect((await get.execute({ path: "memory/none.md" }, ctx)).content).toContain("does not exist");
  });
});

describe("dailyMemoryFiles", () => {
  it("returns yesterday's and today's notes by local date, oldest first", async () => {
    writeFileSync(ws("memory/2025-03-02.md"), "today note\n");
    writeFileSync(ws("memory/2025-02-28.md"), "too old\n");
    const files = await dailyMemoryFiles(box.ws, new Date(2025, 2, 2, 0, 30));
    expect(files).toEqual([
      { date: "2025-03-01", path: "memory/2025-03-01.md", content: expect.stringContaining("# March 1") },
      { date: "2025-03-02", path: "memory/2025-03-02.md", content: "today note\n" },
    ]);
    expect(await dailyMemoryFiles(box.ws, new Date(2024, 0, 1))).toEqual([]);
  });

  it("finds a note in a memory/ folder created after a turn that found no folder", async () => {
    rmSync(ws("memory"), { recursive: true, force: true });
    const day = new Date(2025, 2, 2, 12);
    expect(await dailyMemoryFiles(box.ws, day)).toEqual([]);
    expect(await dailyMemoryFiles(box.ws, day)).toEqual([]);
    mkdirSync(ws("memory"));
    writeFileSync(ws("memory/2025-03-02.md"), "new folder, new note\n");
    expect(await dailyMemoryFiles(box.ws, day)).toEqual([
      { date: "2025-03-02", path: "memory/2025-03-02.md", content: "new folder, new note\n" },
    ]);
  });
});

describe("chunkMarkdown", () => {
  it("starts a chunk at each heading, keeps fences whole and respects the size", () => {
    const text = ["# A", "one", "", "```", "code", "", "more code", "```", "# B", "two"].join("\n");
    expect(chunkMarkdown(text)).toEqual([
      { startLine: 1, endLine: 8, text: "# A\none\n\n```\ncode\n\nmore code\n```" },
      { startLine: 9, endLine: 10, text: "# B\ntwo" },
    ]);
    const long = Array.from({ length: 40 }, (_, i) => `line ${i} ${"x".repeat(50)}`).join("\n");
    const chunks = chunkMarkdown(long, 500);
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(500);
    expect(chunks[0]!.startLine).toBe(1);
    expect(chunks.at(-1)!.endLine).toBe(40);
  });
});
