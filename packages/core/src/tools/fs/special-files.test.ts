// File tools on FIFOs, sockets and devices: refused at once, never blocking the libuv thread pool.
import { spawnSync } from "node:child_process";
import { promises as dns } from "node:dns";
import { mkdirSync, promises as fs, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dailyMemoryFiles, localDateStamp } from "../../memory/index.js";
import { loadWorkspaceBootstrapFiles } from "../../workspace/index.js";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { createApplyPatchTool, createEditTool, createMemoryGetTool, createReadTool, createWriteTool, type ToolContext } from "../index.js";

const hasMkfifo = spawnSync("sh", ["-c", "command -v mkfifo"]).status === 0;

let box: TestSandbox;
let ctx: ToolContext;
const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();
const applyPatch = createApplyPatchTool();
const memoryGet = createMemoryGetTool();

beforeEach(() => {
  box = makeSandbox();
  ctx = makeCtx(box);
});
afterEach(() => box.cleanup());

function mkfifo(rel: string): void {
  const res = spawnSync("mkfifo", [path.join(box.ws, rel)]);
  if (res.status !== 0) throw new Error(`mkfifo failed: ${res.stderr}`);
}

/** Settles with `promise`, or rejects when it takes longer than `ms` (a deadline, not a sleep). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a FIFO in the workspace", () => {
  // A missing tool fails the run instead of skipping it: CI must exercise these.
  beforeAll(() => expect(hasMkfifo, "mkfifo is missing: install coreutils; these tests need a real FIFO").toBe(true));
  it("read refuses it at once, and 8 tries leave fs and dns working", async () => {
    mkfifo("pipe");
    writeFileSync(path.join(box.ws, "plain.txt"), "hello\n");
    const results = await within(
      3000,
      "8 reads of a FIFO",
      Promise.all(Array.from({ length: 8 }, () => read.execute({ path: "pipe" }, ctx))),
    );
    for (const res of results) {
      expect(res.isError).toBe(true);
      expect(res.content).toBe('"pipe" is a FIFO (named pipe), not a regular file; read only opens regular files.');
    }
    await expect(within(3000, "fs.readFile", fs.readFile(path.join(box.ws, "plain.txt"), "utf8"))).resolves.toBe("hello\n");
    await expect(within(3000, "dns.lookup", dns.lookup("localhost"))).resolves.toHaveProperty("address");
  });

  it("edit, apply_patch and memory_get refuse it; write will not replace it", async () => {
    mkfifo("pipe");
    mkdirSync(path.join(box.ws, "memory"));
    mkfifo("memory/notes.md");
    const editRes = await within(3000, "edit", edit.execute({ path: "pipe", old_string: "a", new_string: "b" }, ctx));
    expect(editRes.content).toBe('"pipe" is a FIFO (named pipe), not a regular file; edit only opens regular files.');
    const patch = "*** Begin Patch\n*** Update File: pipe\n@@\n-a\n+b\n*** End Patch";
    const patchRes = await within(3000, "apply_patch", applyPatch.execute({ input: patch }, ctx));
    expect(patchRes.isError).toBe(true);
    expect(patchRes.content).toContain('"pipe" is a FIFO (named pipe), not a regular file; apply_patch only opens regular files.');
    const memRes = await within(3000, "memory_get", memoryGet.execute({ path: "memory/notes.md" }, ctx));
    expect(memRes.isError).toBe(true);
    expect(memRes.content).toContain('"memory/notes.md" is a FIFO (named pipe), not a regular file; memory_get only opens regular files.');
    const writeRes = await write.execute({ path: "pipe", content: "x" }, ctx);
    expect(writeRes.content).toBe('"pipe" is a FIFO (named pipe), not a regular file; write only replaces regular files.');
    expect((await fs.lstat(path.join(box.ws, "pipe"))).isFIFO()).toBe(true);
  });
});

describe("a FIFO where the prompt builder reads", () => {
  // A missing tool fails the run instead of skipping it: CI must exercise these.
  beforeAll(() => expect(hasMkfifo, "mkfifo is missing: install coreutils; these tests need a real FIFO").toBe(true));
  it("a FIFO bootstrap file or daily note reads as missing instead of blocking", async () => {
    mkfifo("AGENTS.md");
    mkdirSync(path.join(box.ws, "memory"));
    const now = new Date();
    mkfifo(`memory/${localDateStamp(now)}.md`);
    const files = await within(3000, "bootstrap files", loadWorkspaceBootstrapFiles(box.ws));
    expect(files.find((f) => f.name === "AGENTS.md")).toMatchObject({ missing: true });
    await expect(within(3000, "daily notes", dailyMemoryFiles(box.ws, now))).resolves.toEqual([]);
  });
});

describe("other special files", () => {
  it("read refuses a unix socket", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(box.ws, "app.sock"), resolve));
    try {
      const res = await read.execute({ path: "app.sock" }, ctx);
      expect(res.content).toBe('"app.sock" is a socket, not a regular file; read only opens regular files.');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("read refuses a character device listed as a readable skill file", async () => {
    const res = await read.execute({ path: "/dev/null" }, { ...ctx, readableFiles: new Map([["/dev/null", "/dev/null"]]) });
    expect(res.isError).toBe(true);
    expect(res.content).toBe('"/dev/null" is a character device, not a regular file; read only opens regular files.');
  });

  it("apply_patch outside the workspace (workspaceOnly: false) refuses a device", async () => {
    const loose = { ...ctx, config: makeConfig({ tools: { exec: { applyPatch: { workspaceOnly: false } } } }) };
    const patch = "*** Begin Patch\n*** Update File: /dev/zero\n@@\n-a\n+b\n*** End Patch";
    const res = await within(3000, "apply_patch on /dev/zero", applyPatch.execute({ input: patch }, loose));
    expect(res.isError).toBe(true);
    expect(res.content).toContain('"/dev/zero" is a character device, not a regular file');
  });
});

describe("abort", () => {
  it("an aborted read returns at once without reading", async () => {
    writeFileSync(path.join(box.ws, "a.md"), "text\n");
    const controller = new AbortController();
    controller.abort();
    const res = await read.execute({ path: "a.md" }, { ...ctx, signal: controller.signal });
    expect(res.isError).toBe(true);
    expect(res.content).toBe("read was aborted.");
  });
});
