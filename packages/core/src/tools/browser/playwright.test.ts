import { describe, expect, it } from "vitest";
import { BrowserNotFoundError } from "./executable.js";
import { loadPlaywright, PLAYWRIGHT_VERSION } from "./playwright.js";

describe("loadPlaywright", () => {
  it("says how to install playwright-core, or turn the tool off, when it is missing", async () => {
    // A real failed resolution of a package that is not installed, as Node reports it.
    const error = await loadPlaywright((s) => import(`${s}-not-installed`)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    expect((error as Error).message).toContain(`npm install -g playwright-core@${PLAYWRIGHT_VERSION}`);
    expect((error as Error).message).toContain('tools.deny: ["browser"]');
  });

  it("loads the installed playwright-core, the version core declares as its optional peer", async () => {
    const playwright = await loadPlaywright();
    expect(typeof playwright.chromium.launchPersistentContext).toBe("function");
    const { createRequire } = await import("node:module");
    const require = createRequire(import.meta.url);
    expect(require("playwright-core/package.json").version).toBe(PLAYWRIGHT_VERSION);
    expect(require("../../../package.json").peerDependencies["playwright-core"]).toBe(PLAYWRIGHT_VERSION);
  });
});
