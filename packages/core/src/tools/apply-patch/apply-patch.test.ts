import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { createApplyPatchTool, createBuiltinTools, isApplyPatchAllowed, parsePatch, PatchParseError, type ToolContext } from "../index.js";

let box: TestSandbox;
let ctx: ToolContext;
const tool = createApplyPatchTool();
const ws = (rel: string) => path.join(box.ws, rel);
const patch = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
const run = (input: string, c: ToolContext = ctx) => tool.execute({ input }, c);

beforeEach(() => {
  box = makeSandbox();
  ctx = makeCtx(box, { modelRef: "openai/gpt-5" });
  writeFileSync(path.join(box.outside, "secret.txt"), "secret\n");
});
afterEach(() => box.cleanup());

describe("parsePatch", () => {
  it("parses add, update (with move and sections) and delete hunks", () => {
    const hunks = parsePatch(
      patch(
        "*** Add File: new.txt",
        "+hello",
        "+world",
        "*** Update File: src/a.py",
        "*** Move to: src/b.py",
        "@@ def f():",
        " x = 1",
        "-y = 2",
        "+y = 3",
        "*** End of File",
        "*** Delete File: old.txt",
      ),
    );
    expect(hunks).toMatchObject([
      { type: "add", path: "new.txt", content: "hello\nworld\n" },
      {
        type: "update",
        path: "src/a.py",
        moveTo: "src/b.py",
        chunks: [{ context: "def f():", oldLines: ["x = 1", "y = 2"], newLines: ["x = 1", "y = 3"], atEndOfFile: true }],
      },
      { type: "delete", path: "old.txt" },
    ]);
  });

  it("tolerates a heredoc wrapper and surrounding blank lines", () => {
    const text = `\napply_patch <<'EOF'\n${patch("*** Delete File: a.txt")}\nEOF\n\n`;
    expect(parsePatch(text)).toEqual([{ type: "delete", path: "a.txt" }]);
  });

  it("rejects malformed patches with the line number", () => {
    expect(() => parsePatch("*** Update File: a")).toThrow(PatchParseError);
    expect(() => parsePatch(patch("*** Add File: a.txt", "no plus"))).toThrow(/line 3: every line of an added file/);
    expect(() => parsePatch(patch("*** Frobnicate: a"))).toThrow(/line 2/);
    expect(() => parsePatch(patch())).toThrow(/no file operations/);
  });
});

describe("apply_patch", () => {
  it("adds, updates, moves and deletes files", async () => {
    writeFileSync(ws("a.py"), "def f():\n    x = 1\n    y = 2\n    return x + y\n");
    writeFileSync(ws("old.txt"), "bye\n");
    writeFileSync(ws("mv.txt"), "keep\nchange me\n");
    const res = await run(
      patch(
        "*** Add File: docs/new.md",
        "+# New",
        "*** Update File: a.py",
        "@@ def f():",
        "     x = 1",
        "-    y = 2",
        "+    y = 20",
        "     return x + y",
        "*** Delete File: old.txt",
        "*** Update File: mv.txt",
        "*** Move to: moved/mv.txt",
        "@@",
        " keep",
        "-change me",
        "+changed",
      ),
    );
    expect(res.isError).toBeFalsy();
    expect(res.content).toBe("Patch applied:\nA docs/new.md\nM a.py\nD old.txt\nR mv.txt -> moved/mv.txt");
    expect(readFileSync(ws("docs/new.md"), "utf8")).toBe("# New\n");
    expect(readFileSync(ws("a.py"), "utf8")).toBe("def f():\n    x = 1\n    y = 20\n    return x + y\n");
    expect(existsSync(ws("old.txt"))).toBe(false);
    expect(existsSync(ws("mv.txt"))).toBe(false);
    expect(readFileSync(ws("moved/mv.txt"), "utf8")).toBe("keep\nchanged\n");
  });

  it("applies several sections in order and anchors End of File sections at the end", async () => {
    writeFileSync(ws("f.txt"), "a\nx\nb\nx\nc\nx\n");
    const res = await run(patch("*** Update File: f.txt", "@@", " a", "-x", "+1", "@@", " c", "-x", "+3", "*** End of File"));
    expect(res.isError).toBeFalsy();
    expect(readFileSync(ws("f.txt"), "utf8")).toBe("a\n1\nb\nx\nc\n3\n");
  });

  it("forgives trailing-whitespace and typographic differences in context lines", async () => {
    writeFileSync(ws("f.txt"), "say \u201chi\u201d   \nthen\n");
    const res = await run(patch("*** Update File: f.txt", ' say "hi"', "-then", "+now"));
    expect(res.isError).toBeFalsy();
    expect(readFileSync(ws("f.txt"), "utf8")).toBe("say \u201chi\u201d   \nnow\n");
  });

  it("keeps CRLF line endings", async () => {
    writeFileSync(ws("w.txt"), "one\r\ntwo\r\n");
    await run(patch("*** Update File: w.txt", " one", "-two", "+deux"));
    expect(readFileSync(ws("w.txt"), "utf8")).toBe("one\r\ndeux\r\n");
  });

  it("is all-or-nothing: a failing hunk leaves every file untouched", async () => {
    writeFileSync(ws("a.txt"), "alpha\n");
    writeFileSync(ws("b.txt"), "beta\n");
    const res = await run(
      patch("*** Update File: a.txt", "-alpha", "+ALPHA", "*** Add File: c.txt", "+new", "*** Update File: b.txt", "-gamma", "+GAMMA"),
    );
    expect(res.isError).toBe(true);
    expect(res.content).toContain('section 1 of "b.txt"');
    expect(res.content).toContain("gamma");
    expect(res.content).toContain("Nothing was changed");
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("alpha\n");
    expect(existsSync(ws("c.txt"))).toBe(false);
  });

  it("reports updates and deletes of missing files", async () => {
    expect((await run(patch("*** Delete File: nope.txt"))).content).toContain("does not exist");
    expect((await run(patch("*** Update File: nope.txt", "-a", "+b"))).content).toContain("*** Add File: nope.txt");
  });

  it("refuses paths that leave the workspace (traversal, absolute, symlinks) and changes nothing", async () => {
    symlinkSync(box.outside, ws("out"));
    symlinkSync(path.join(box.outside, "secret.txt"), ws("link.txt"));
    writeFileSync(ws("ok.txt"), "ok\n");
    const attempts = [
      "*** Add File: ../outside/evil.txt\n+x",
      `*** Add File: ${path.join(box.outside, "evil.txt")}\n+x`,
      "*** Add File: out/evil.txt\n+x",
      "*** Update File: link.txt\n-secret\n+pwned",
      "*** Delete File: ../outside/secret.txt",
      "*** Update File: ok.txt\n*** Move to: ../outside/moved.txt\n-ok\n+ok",
    ];
    for (const hunk of attempts) {
      const res = await run(patch("*** Add File: first.txt", "+should not exist", hunk));
      expect(res.isError, hunk).toBe(true);
      expect(res.content, hunk).toContain("outside the workspace");
    }
    expect(existsSync(ws("first.txt"))).toBe(false);
    expect(existsSync(path.join(box.outside, "evil.txt"))).toBe(false);
    expect(readFileSync(path.join(box.outside, "secret.txt"), "utf8")).toBe("secret\n");
    expect(existsSync(ws("ok.txt"))).toBe(true);
  });

  it("may leave the workspace when workspaceOnly is false", async () => {
    const loose = makeCtx(box, {
      modelRef: "openai/gpt-5",
      config: makeConfig({ tools: { exec: { applyPatch: { workspaceOnly: false } } } }),
    });
    const target = path.join(box.outside, "allowed.txt");
    const res = await run(patch(`*** Add File: ${target}`, "+fine"), loose);
    expect(res.isError).toBeFalsy();
    expect(readFileSync(target, "utf8")).toBe("fine\n");
  });

  it("refuses to run for a model that is not allowed", async () => {
    const res = await run(patch("*** Add File: x.txt", "+x"), { ...ctx, modelRef: "anthropic/claude-sonnet-4" });
    expect(res.isError).toBe(true);
    expect(res.content).toContain("tools.exec.applyPatch");
  });
});

describe("apply_patch gating", () => {
  it("defaults to OpenAI models", () => {
    const config = makeConfig();
    for (const ref of ["openai/gpt-5", "openai/anything", "openrouter/openai/gpt-4.1", "azure/o3-mini", "openai-codex/codex-mini"]) {
      expect(isApplyPatchAllowed(config, ref), ref).toBe(true);
    }
    for (const ref of ["anthropic/claude-opus-4", "ollama/llama3.1", "openrouter/moonshotai/kimi-k2"]) {
      expect(isApplyPatchAllowed(config, ref), ref).toBe(false);
    }
    expect(isApplyPatchAllowed(config, undefined)).toBe(false);
  });

  it("follows allowModels patterns and the enabled switch", () => {
    const allow = (allowModels: string[]) => makeConfig({ tools: { exec: { applyPatch: { allowModels } } } });
    expect(isApplyPatchAllowed(allow(["ollama/qwen*"]), "ollama/qwen2.5-coder")).toBe(true);
    expect(isApplyPatchAllowed(allow(["ollama/qwen*"]), "openai/gpt-5")).toBe(false);
    expect(isApplyPatchAllowed(allow(["claude-*"]), "anthropic/Claude-Sonnet-4")).toBe(true);
    expect(isApplyPatchAllowed(allow(["*"]), undefined)).toBe(true);
    expect(isApplyPatchAllowed(allow([]), "openai/gpt-5")).toBe(false);
    expect(isApplyPatchAllowed(makeConfig({ tools: { exec: { applyPatch: { enabled: false } } } }), "openai/gpt-5")).toBe(false);
  });

  it("is offered by createBuiltinTools only when allowed", () => {
    const names = (modelRef?: string) => createBuiltinTools({ config: makeConfig(), ...(modelRef ? { modelRef } : {}) }).map((t) => t.name);
    expect(names("openai/gpt-5")).toContain("apply_patch");
    expect(names("anthropic/claude-opus-4")).not.toContain("apply_patch");
    expect(names()).not.toContain("apply_patch");
  });
});
