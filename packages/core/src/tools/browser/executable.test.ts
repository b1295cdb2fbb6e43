import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { BrowserManager, createBrowserTool, findChromiumOnPath, resolveChromiumExecutable } from "../index.js";

let box: TestSandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

function fakeBinary(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, "#!/bin/sh\nexit 0\n");
  chmodSync(file, mode);
  return file;
}

describe("finding Chromium", () => {
  it("prefers chromium to chromium-browser and skips files that are not executable", () => {
    const a = path.join(box.root, "a");
    const b = path.join(box.root, "b");
    fakeBinary(a, "chromium", 0o644);
    const browser = fakeBinary(a, "chromium-browser");
    const chromium = fakeBinary(b, "chromium");
    expect(findChromiumOnPath([a, b].join(path.delimiter))).toBe(chromium);
    expect(findChromiumOnPath(a)).toBe(browser);
    expect(findChromiumOnPath(path.join(box.root, "none"))).toBeUndefined();
  });

  it("names the config key and the install script when nothing is found", () => {
    expect(() => resolveChromiumExecutable(undefined, path.join(box.root, "none"))).toThrow(
      /chromium nor chromium-browser is on PATH.*scripts\/install-chromium\.sh.*tools\.browser\.executablePath/,
    );
    const configured = path.join(box.root, "missing-chrome");
    expect(() => resolveChromiumExecutable(configured)).toThrow(
      `The browser at ${configured} (tools.browser.executablePath in openclaw.json)`,
    );
  });

  it("the tool reports a bad executablePath as an error result and stays stopped", async () => {
    const manager = new BrowserManager();
    const tool = createBrowserTool({ manager });
    const ctx = makeCtx(box, {
      config: makeConfig({ tools: { browser: { executablePath: path.join(box.root, "nope"), allowPrivateNetwork: true } } }),
    });
    const res = await tool.execute({ action: "open", url: "http://127.0.0.1:9/" }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("tools.browser.executablePath");
    expect(manager.isRunning("main")).toBe(false);
    expect((await tool.execute({ action: "click" }, ctx)).content).toContain('needs "ref"');
  });
});
