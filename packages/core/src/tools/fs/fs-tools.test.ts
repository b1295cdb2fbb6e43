import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { createEditTool, createReadTool, createWriteTool, READ_MAX_CHARS, type ToolContext } from "../index.js";

let box: TestSandbox;
let ctx: ToolContext;
const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();

beforeEach(() => {
  box = makeSandbox();
  ctx = makeCtx(box);
  writeFileSync(path.join(box.outside, "secret.txt"), "top secret\n");
});
afterEach(() => box.cleanup());

const wsFile = (rel: string) => path.join(box.ws, rel);

describe("read", () => {
  it("returns the file's text", async () => {
    writeFileSync(wsFile("a.md"), "one\ntwo\nthree\n");
    const res = await read.execute({ path: "a.md" }, ctx);
    expect(res.isError).toBeFalsy();
    expect(res.content).toBe("one\ntwo\nthree");
  });

  it("returns a window of lines and says how to continue", async () => {
    writeFileSync(wsFile("a.md"), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n"));
    const res = await read.execute({ path: "a.md", offset: 3, limit: 2 }, ctx);
    expect(res.content.split("\n\n")[0]).toBe("line 3\nline 4");
    expect(res.content).toContain("offset=5");
    expect(res.details).toMatchObject({ firstLine: 3, lastLine: 4, truncated: true });
  });

  it("caps the characters returned with a notice", async () => {
    const line = "x".repeat(1000);
    writeFileSync(wsFile("big.txt"), Array.from({ length: 300 }, () => line).join("\n"));
    const res = await read.execute({ path: "big.txt" }, ctx);
    expect(res.content.length).toBeLessThan(READ_MAX_CHARS + 500);
    expect(res.content).toMatch(/more lines follow\. Call read with offset=\d+/);
  });

  it("refuses binary files and explains", async () => {
    writeFileSync(wsFile("img.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
    const res = await read.execute({ path: "img.bin" }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("binary");
  });

  it("reports missing files, directories and offsets past the end", async () => {
    writeFileSync(wsFile("a.md"), "one\n");
    mkdirSync(wsFile("dir"));
    expect((await read.execute({ path: "nope.md" }, ctx)).content).toContain("does not exist");
    expect((await read.execute({ path: "dir" }, ctx)).content).toContain("is a directory");
    expect((await read.execute({ path: "a.md", offset: 5 }, ctx)).content).toContain("past the end");
  });

  it("rejects bad arguments without throwing", async () => {
    const res = await read.execute({ offset: 0 }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("invalid arguments");
  });
});

describe("write", () => {
  it("creates the file and its parent folders", async () => {
    const res = await write.execute({ path: "a/b/c.md", content: "hello" }, ctx);
    expect(res.isError).toBeFalsy();
    expect(res.content).toContain("Created a/b/c.md");
    expect(readFileSync(wsFile("a/b/c.md"), "utf8")).toBe("hello");
  });

  it("replaces a file atomically, keeping its mode and leaving no temp files", async () => {
    writeFileSync(wsFile("run.sh"), "old");
    chmodSync(wsFile("run.sh"), 0o755);
    const res = await write.execute({ path: "run.sh", content: "new" }, ctx);
    expect(res.content).toContain("Replaced run.sh");
    expect(readFileSync(wsFile("run.sh"), "utf8")).toBe("new");
    expect(statSync(wsFile("run.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(box.ws)).toEqual(["run.sh"]);
  });

  it("writes through a symlink that stays inside to its real target", async () => {
    writeFileSync(wsFile("real.md"), "x");
    symlinkSync(wsFile("real.md"), wsFile("alias.md"));
    await write.execute({ path: "alias.md", content: "via alias" }, ctx);
    expect(readFileSync(wsFile("real.md"), "utf8")).toBe("via alias");
  });
});

describe("edit", () => {
  beforeEach(() => writeFileSync(wsFile("code.ts"), "const a = 1;\nconst b = 2;\nconst a2 = 1;\n"));

  it("replaces a unique string", async () => {
    const res = await edit.execute({ path: "code.ts", old_string: "const b = 2;", new_string: "const b = 3;" }, ctx);
    expect(res.isError).toBeFalsy();
    expect(readFileSync(wsFile("code.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\nconst a2 = 1;\n");
  });

  it("fails when the string is missing, with a whitespace hint", async () => {
    const res = await edit.execute({ path: "code.ts", old_string: "const  b = 2;", new_string: "x" }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("not found");
    expect(res.content).toContain("line 2");
  });

  it("fails when the string is not unique unless replace_all", async () => {
    const res = await edit.execute({ path: "code.ts", old_string: "= 1;", new_string: "= 9;" }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("occurs 2 times");
    const all = await edit.execute({ path: "code.ts", old_string: "= 1;", new_string: "= 9;", replace_all: true }, ctx);
    expect(all.content).toContain("replaced 2 occurrences");
    expect(readFileSync(wsFile("code.ts"), "utf8")).toBe("const a = 9;\nconst b = 2;\nconst a2 = 9;\n");
  });

  it("matches LF text in a CRLF file and keeps CRLF", async () => {
    writeFileSync(wsFile("win.txt"), "one\r\ntwo\r\nthree\r\n");
    const res = await edit.execute({ path: "win.txt", old_string: "one\ntwo", new_string: "uno\ndos" }, ctx);
    expect(res.isError).toBeFalsy();
    expect(readFileSync(wsFile("win.txt"), "utf8")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  it("refuses identical strings and missing files", async () => {
    expect((await edit.execute({ path: "code.ts", old_string: "a", new_string: "a" }, ctx)).content).toContain("identical");
    expect((await edit.execute({ path: "nope.ts", old_string: "a", new_string: "b" }, ctx)).content).toContain("does not exist");
  });
});

describe("file tools stay inside the workspace", () => {
  const escapes = () => [
    { label: "traversal", path: "../outside/secret.txt" },
    { label: "absolute", path: path.join(box.outside, "secret.txt") },
    { label: "symlinked file", path: "link.txt" },
    { label: "symlinked folder", path: "out/secret.txt" },
  ];
  beforeEach(() => {
    symlinkSync(path.join(box.outside, "secret.txt"), wsFile("link.txt"));
    symlinkSync(box.outside, wsFile("out"));
  });

  it("read refuses every escape", async () => {
    for (const e of escapes()) {
      const res = await read.execute({ path: e.path }, ctx);
      expect(res.isError, e.label).toBe(true);
      expect(res.content, e.label).toContain("outside the workspace");
      expect(res.content).not.toContain("top secret");
    }
  });

  it("write refuses every escape, including new files through a symlinked folder", async () => {
    for (const e of [...escapes(), { label: "new file via symlinked folder", path: "out/new.txt" }]) {
      const res = await write.execute({ path: e.path, content: "pwned" }, ctx);
      expect(res.isError, e.label).toBe(true);
    }
    expect(readFileSync(path.join(box.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(existsSync(path.join(box.outside, "new.txt"))).toBe(false);
  });

  it("edit refuses every escape", async () => {
    for (const e of escapes()) {
      const res = await edit.execute({ path: e.path, old_string: "top", new_string: "pwned" }, ctx);
      expect(res.isError, e.label).toBe(true);
    }
    expect(readFileSync(path.join(box.outside, "secret.txt"), "utf8")).toBe("top secret\n");
  });
});
