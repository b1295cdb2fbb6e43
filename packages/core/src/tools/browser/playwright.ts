// playwright-core (about 14 MB) is an optional peer of @openclaw/core: only users of the browser
// tool install it. It is imported on the first browser launch.
import type * as Playwright from "playwright-core";
import { BrowserNotFoundError } from "./executable.js";

/** The playwright-core version the browser tool is tested with (core's optional peer dependency). */
export const PLAYWRIGHT_VERSION = "1.65.1";

/**
 * Imports playwright-core. When it is not installed, throws BrowserNotFoundError (reported to the
 * model as a tool error) naming the install command and how to turn the tool off instead.
 */
export async function loadPlaywright(importer: (specifier: string) => Promise<unknown> = (s) => import(s)): Promise<typeof Playwright> {
  try {
    return (await importer("playwright-core")) as typeof Playwright;
  } catch (err) {
    const code = (err as { code?: unknown })?.code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw err;
    throw new BrowserNotFoundError(
      `The browser tool needs the playwright-core package, which is not installed: install it next to OpenClaw with \`npm install -g playwright-core@${PLAYWRIGHT_VERSION}\` (without -g when OpenClaw is a project dependency), or turn the tool off with tools.deny: ["browser"] in openclaw.json.`,
    );
  }
}
