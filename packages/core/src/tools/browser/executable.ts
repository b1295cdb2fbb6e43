import { accessSync, constants } from "node:fs";
import path from "node:path";

/** Names looked up on PATH when `tools.browser.executablePath` is not set, in order. */
export const CHROMIUM_NAMES = ["chromium", "chromium-browser"] as const;

/** A browser binary that cannot be found or run. */
export class BrowserNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BrowserNotFoundError";
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** First `chromium` / `chromium-browser` on `pathEnv` (default `$PATH`), or undefined. */
export function findChromiumOnPath(pathEnv: string | undefined = process.env.PATH): string | undefined {
  for (const name of CHROMIUM_NAMES) {
    for (const dir of (pathEnv ?? "").split(path.delimiter)) {
      if (dir === "") continue;
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

/**
 * The Chromium binary to launch: `configured` (tools.browser.executablePath) when given and
 * executable, else the first of {@link CHROMIUM_NAMES} on PATH. Throws BrowserNotFoundError
 * naming the config key and the install script otherwise.
 */
export function resolveChromiumExecutable(configured: string | undefined, pathEnv?: string): string {
  if (configured !== undefined) {
    if (isExecutable(configured)) return configured;
    throw new BrowserNotFoundError(
      `The browser at ${configured} (tools.browser.executablePath in openclaw.json) does not exist or is not executable; fix the path or remove the key to use chromium from PATH.`,
    );
  }
  const found = findChromiumOnPath(pathEnv);
  if (found) return found;
  throw new BrowserNotFoundError(
    "No Chromium found: neither chromium nor chromium-browser is on PATH. Install it (apt-get install chromium, or scripts/install-chromium.sh in the OpenClaw repository) or set tools.browser.executablePath in openclaw.json.",
  );
}
