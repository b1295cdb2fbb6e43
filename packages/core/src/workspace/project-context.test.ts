import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  assembleProjectContext,
  buildProjectContext,
  missingFileMarker,
  type BootstrapFileName,
  type WorkspaceBootstrapFile,
} from "./index.js";

let ws: string;
beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "openclaw-ctx-"));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const SIX = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md"] as const;

function write(name: string, content: string): void {
  writeFileSync(path.join(ws, name), content);
}
function writeSix(): void {
  for (const name of SIX) write(name, `content of ${name}\n`);
}
function fileObj(name: BootstrapFileName, content: string | undefined): WorkspaceBootstrapFile {
  const p = `/ws/${name}`;
  return content === undefined
    ? { name, path: p, missing: true, rawChars: 0 }
    : { name, path: p, missing: false, content, rawChars: content.length };
}

describe("assembleProjectContext", () => {
  it("lists files in prompt order, with headings and the exact layout", async () => {
    writeSix();
    write("MEMORY.md", "remember this\n");
    write("BOOTSTRAP.md", "first run\n");
    const ctx = await assembleProjectContext(ws, { heartbeat: true });
    expect(ctx.files.map((f) => f.name)).toEqual([...SIX, "BOOTSTRAP.md", "MEMORY.md"]);
    expect(ctx.files.every((f) => f.status === "ok")).toBe(true);
    expect(ctx.bootstrapPending).toBe(true);
    const lines = ctx.text.split("\n");
    expect(lines[0]).toBe("# Project Context");
    expect(lines[1]).toBe("");
    expect(ctx.text).toContain("SOUL.md describes who you are");
    const agents = path.join(ws, "AGENTS.md");
    expect(ctx.text).toContain(`\n## ${agents}\n\ncontent of AGENTS.md\n\n## ${path.join(ws, "SOUL.md")}\n`);
    expect(ctx.text.endsWith(`## ${path.join(ws, "MEMORY.md")}\n\nremember this\n`)).toBe(true);
    const headings = lines.filter((l) => l.startsWith("## ")).map((l) => path.basename(l.slice(3)));
    expect(headings).toEqual([...SIX, "BOOTSTRAP.md", "MEMORY.md"]);
    expect(ctx.text).not.toContain("Note:");
  });

  it("skips blank files and omits the SOUL line when SOUL.md is blank", async () => {
    writeSix();
    write("SOUL.md", "  \n\n\t\n");
    const ctx = await assembleProjectContext(ws);
    expect(ctx.files.find((f) => f.name === "SOUL.md")).toMatchObject({ status: "blank", injectedChars: 0 });
    expect(ctx.text).not.toContain(path.join(ws, "SOUL.md"));
    expect(ctx.text).not.toContain("SOUL.md describes");
  });

  it("turns a missing file into one marker line naming its path; MEMORY.md and BOOTSTRAP.md are simply absent", async () => {
    writeSix();
    rmSync(path.join(ws, "USER.md"));
    const ctx = await assembleProjectContext(ws);
    const user = path.join(ws, "USER.md");
    expect(ctx.files.find((f) => f.name === "USER.md")).toMatchObject({ status: "missing", rawChars: 0 });
    expect(ctx.text).toContain(`## ${user}\n\n${missingFileMarker(user)}\n`);
    expect(missingFileMarker(user)).not.toContain("\n");
    expect(missingFileMarker(user)).toContain(user);
    expect(ctx.files.map((f) => f.name)).not.toContain("MEMORY.md");
    expect(ctx.files.map((f) => f.name)).not.toContain("BOOTSTRAP.md");
    expect(ctx.bootstrapPending).toBe(false);
  });

  it("injects MEMORY.md only when that exact entry exists", async () => {
    writeSix();
    write("memory.md", "lower case is not it");
    const ctx = await assembleProjectContext(ws);
    expect(ctx.files.map((f) => f.name)).not.toContain("MEMORY.md");
  });

  it("gives sub-agents AGENTS.md and TOOLS.md only", async () => {
    writeSix();
    write("MEMORY.md", "secret");
    const ctx = await assembleProjectContext(ws, { sessionKey: "agent:main:subagent:1234" });
    expect(ctx.sessionKind).toBe("subagent");
    expect(ctx.files.map((f) => f.name)).toEqual(["AGENTS.md", "TOOLS.md"]);
    expect(ctx.text).not.toContain("SOUL.md describes");
  });

  it("never gives MEMORY.md to group or channel sessions, and cron gets its five files", async () => {
    writeSix();
    write("MEMORY.md", "secret");
    for (const key of ["agent:main:telegram:group:-100123", "agent:main:discord:channel:42"]) {
      const ctx = await assembleProjectContext(ws, { sessionKey: key });
      expect(ctx.sessionKind).toBe("group");
      expect(ctx.files.map((f) => f.name)).toEqual(SIX.filter((n) => n !== "HEARTBEAT.md"));
      expect(ctx.text).not.toContain("secret");
    }
    // A DM session of its own (dmScope per-peer and up) is not the main session: no MEMORY.md.
    const direct = await assembleProjectContext(ws, { sessionKey: "agent:main:telegram:direct:7" });
    expect(direct.sessionKind).toBe("direct");
    expect(direct.files.map((f) => f.name)).not.toContain("MEMORY.md");
    const main = await assembleProjectContext(ws, { sessionKey: "agent:main:main" });
    expect(main.files.map((f) => f.name)).toContain("MEMORY.md");
    const cron = await assembleProjectContext(ws, { sessionKey: "cron:nightly" });
    expect(cron.files.map((f) => f.name)).toEqual(["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md"]);
  });

  it("gives HEARTBEAT.md to heartbeat runs only", async () => {
    writeSix();
    const heartbeatFile = path.join(ws, "HEARTBEAT.md");
    for (const sessionKey of ["agent:main:main", "agent:main:telegram:direct:7", "agent:main:telegram:group:-1"]) {
      const ordinary = await assembleProjectContext(ws, { sessionKey });
      expect(
        ordinary.files.map((f) => f.name),
        sessionKey,
      ).not.toContain("HEARTBEAT.md");
      expect(ordinary.text).not.toContain(heartbeatFile);
    }
    const beat = await assembleProjectContext(ws, { sessionKey: "agent:main:main", heartbeat: true });
    expect(beat.files.map((f) => f.name)).toContain("HEARTBEAT.md");
    expect(beat.text).toContain(`## ${heartbeatFile}\n\ncontent of HEARTBEAT.md\n`);
    // Sessions whose kind never gets it do not get it in a heartbeat run either.
    const sub = await assembleProjectContext(ws, { sessionKey: "agent:main:subagent:1", heartbeat: true });
    expect(sub.files.map((f) => f.name)).toEqual(["AGENTS.md", "TOOLS.md"]);
  });
});

describe("buildProjectContext budgets", () => {
  it("keeps 75 % head and 25 % tail around a marker, within maxChars", () => {
    const body = Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(3, "0")} ${"x".repeat(40)}`).join("\n");
    const ctx = buildProjectContext([fileObj("AGENTS.md", body)], { maxChars: 4000 });
    const file = ctx.files[0]!;
    expect(file.status).toBe("truncated");
    expect(file.injectedChars).toBeLessThanOrEqual(4000);
    expect(file.injectedChars).toBeGreaterThan(3900);
    const block = ctx.text.split(`## /ws/AGENTS.md\n\n`)[1]!.replace(/\n$/, "");
    expect(block.length).toBe(file.injectedChars);
    expect(block.startsWith(body.slice(0, 100))).toBe(true);
    expect(block.endsWith(body.slice(-100))).toBe(true);
    const markerStart = block.indexOf("[… AGENTS.md was cut");
    const markerEnd = block.indexOf("…]") + 2;
    const head = markerStart - 2;
    const tail = block.length - markerEnd - 2;
    expect(head / (head + tail)).toBeCloseTo(0.75, 2);
    const marker = block.slice(markerStart, markerEnd);
    expect(marker).toContain("Read /ws/AGENTS.md");
    expect(marker).toContain(`first ${head} and last ${tail} of ${body.length}`);
    expect(ctx.text).toMatch(/Note: to stay within the context limit, AGENTS\.md was shortened\./);
  });

  it("never exceeds maxChars per file nor the total, for any sizes (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 1, max: 2500 }),
        fc.integer({ min: 1, max: 8000 }),
        (sizes, maxChars, totalMaxChars) => {
          const files = SIX.map((name, i) =>
            fileObj(
              name,
              Array.from("ab😀\n".repeat(sizes[i]! / 4 + 1))
                .slice(0, sizes[i]! + 1)
                .join(""),
            ),
          );
          const ctx = buildProjectContext(files, { maxChars, totalMaxChars });
          for (const f of ctx.files) expect(f.injectedChars).toBeLessThanOrEqual(maxChars);
          expect(ctx.totals.injectedChars).toBeLessThanOrEqual(totalMaxChars);
          // no lone surrogates are produced by cuts
          expect(ctx.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("drops files past the total budget and says so", () => {
    const big = "y".repeat(5000);
    const files = SIX.map((name) => fileObj(name, big));
    const ctx = buildProjectContext(files, { maxChars: 5000, totalMaxChars: 12000, heartbeat: true });
    expect(ctx.files.map((f) => f.status)).toEqual(["ok", "ok", "truncated", "dropped", "dropped", "dropped"]);
    expect(ctx.totals.injectedChars).toBeLessThanOrEqual(12000);
    expect(ctx.totals).toMatchObject({ dropped: 3, truncated: 1, injectedFiles: 3 });
    expect(ctx.text).toContain(
      "Note: to stay within the context limit, TOOLS.md was shortened and IDENTITY.md, USER.md and HEARTBEAT.md were left out.",
    );
    expect(ctx.text).not.toContain("/ws/USER.md");
  });

  it("drops a file when the remaining budget cannot hold a marker and some content", () => {
    const files = [fileObj("AGENTS.md", "a".repeat(990)), fileObj("SOUL.md", "b".repeat(500))];
    const ctx = buildProjectContext(files, { maxChars: 1000, totalMaxChars: 1000 });
    expect(ctx.files.map((f) => f.status)).toEqual(["ok", "dropped"]);
  });

  it("falls back to a plain cut when maxChars itself is too small for a marker", () => {
    const ctx = buildProjectContext([fileObj("AGENTS.md", "z".repeat(100))], { maxChars: 20 });
    expect(ctx.files[0]).toMatchObject({ status: "truncated", injectedChars: 20 });
    expect(ctx.text).toContain(`${"z".repeat(19)}…`);
  });

  it("returns an empty text when nothing is injected", () => {
    const ctx = buildProjectContext([fileObj("AGENTS.md", "\n\n")]);
    expect(ctx.text).toBe("");
    expect(ctx.totals.textChars).toBe(0);
  });
});
