import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type TestSandbox } from "./__fixtures__/context.js";
import { resolveInWorkspace, WorkspacePathError } from "./index.js";

let box: TestSandbox;
beforeEach(() => {
  box = makeSandbox();
  mkdirSync(path.join(box.ws, "notes"));
  writeFileSync(path.join(box.ws, "notes", "a.md"), "a");
  writeFileSync(path.join(box.outside, "secret.txt"), "secret");
});
afterEach(() => box.cleanup());

function refusal(userPath: string, options = {}): WorkspacePathError {
  try {
    resolveInWorkspace(box.ws, userPath, options);
  } catch (err) {
    expect(err).toBeInstanceOf(WorkspacePathError);
    return err as WorkspacePathError;
  }
  throw new Error(`expected ${userPath} to be refused`);
}

describe("resolveInWorkspace", () => {
  it("resolves relative paths against the workspace", () => {
    const r = resolveInWorkspace(box.ws, "notes/a.md", { mustExist: true });
    expect(r).toEqual({ path: path.join(box.ws, "notes", "a.md"), relative: "notes/a.md", exists: true, isDirectory: false });
    expect(resolveInWorkspace(box.ws, "./notes/../notes/a.md").relative).toBe("notes/a.md");
    expect(resolveInWorkspace(box.ws, ".").relative).toBe(".");
  });

  it("accepts a file that does not exist yet, below missing folders", () => {
    const r = resolveInWorkspace(box.ws, "new/deep/file.md", { forWrite: true });
    expect(r.exists).toBe(false);
    expect(r.path).toBe(path.join(box.ws, "new", "deep", "file.md"));
  });

  it("accepts an absolute path inside the workspace", () => {
    expect(resolveInWorkspace(box.ws, path.join(box.ws, "notes", "a.md")).relative).toBe("notes/a.md");
  });

  it("refuses an absolute path outside the workspace, naming it and suggesting a relative one", () => {
    const err = refusal(path.join(box.outside, "secret.txt"));
    expect(err.reason).toBe("absolute-outside");
    expect(err.message).toContain(path.join(box.outside, "secret.txt"));
    expect(err.message).toContain('e.g. "secret.txt"');
    expect(refusal("/etc/passwd").reason).toBe("absolute-outside");
  });

  it("refuses .. that leaves the workspace", () => {
    const err = refusal("../outside/secret.txt");
    expect(err.reason).toBe("dotdot-escape");
    expect(err.message).toContain('"../outside/secret.txt"');
    expect(refusal("notes/../../outside/x").reason).toBe("dotdot-escape");
  });

  it("refuses ~ paths, which point at the home folder", () => {
    if (path.relative(os.homedir(), box.ws).startsWith("..")) expect(refusal("~/x.txt").reason).toBe("absolute-outside");
  });

  it("refuses a symlinked file pointing outside", () => {
    symlinkSync(path.join(box.outside, "secret.txt"), path.join(box.ws, "link.txt"));
    const err = refusal("link.txt");
    expect(err.reason).toBe("symlink-escape");
    expect(err.message).toContain(path.join(box.outside, "secret.txt"));
  });

  it("refuses a path through a symlinked folder pointing outside, for existing and new files", () => {
    symlinkSync(box.outside, path.join(box.ws, "out"));
    expect(refusal("out/secret.txt").reason).toBe("symlink-escape");
    expect(refusal("out/new/file.txt", { forWrite: true }).reason).toBe("symlink-escape");
  });

  it("refuses a dangling symlink (a write through it could land anywhere)", () => {
    symlinkSync(path.join(box.outside, "missing.txt"), path.join(box.ws, "dangling.txt"));
    expect(refusal("dangling.txt", { forWrite: true }).reason).toBe("dangling-symlink");
  });

  it("follows a symlink that stays inside the workspace", () => {
    symlinkSync(path.join(box.ws, "notes"), path.join(box.ws, "alias"));
    const r = resolveInWorkspace(box.ws, "alias/a.md", { mustExist: true });
    expect(r.path).toBe(path.join(box.ws, "notes", "a.md"));
    expect(r.relative).toBe("notes/a.md");
  });

  it("works when the workspace itself is reached through a symlink", () => {
    const linkWs = path.join(box.root, "ws-link");
    symlinkSync(box.ws, linkWs);
    expect(resolveInWorkspace(linkWs, path.join(linkWs, "notes", "a.md")).path).toBe(path.join(box.ws, "notes", "a.md"));
    expect(resolveInWorkspace(linkWs, "notes/a.md").relative).toBe("notes/a.md");
  });

  it("mustExist and forWrite refuse missing files and directories", () => {
    expect(refusal("nope.md", { mustExist: true }).reason).toBe("not-found");
    expect(refusal("notes", { forWrite: true }).reason).toBe("is-directory");
    expect(refusal("").reason).toBe("empty");
  });
});
