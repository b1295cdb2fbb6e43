import type { OpenClawConfig } from "../../config/index.js";

export interface BrowserSettings {
  /** Chromium binary; undefined means "find `chromium` / `chromium-browser` on PATH". */
  executablePath: string | undefined;
  /** Default true. */
  headless: boolean;
  /** Default false: loopback, private, link-local and unique-local targets are refused. */
  allowPrivateNetwork: boolean;
  /** Default 300: the browser closes after this many seconds without a browser call. */
  idleTimeoutSeconds: number;
  /** Default 30: limit for one navigation or element action. */
  timeoutSeconds: number;
  /** Default 30000: longest snapshot text returned; the rest is cut with a notice. */
  maxSnapshotChars: number;
}

export const BROWSER_DEFAULTS: Readonly<Omit<BrowserSettings, "executablePath">> = {
  headless: true,
  allowPrivateNetwork: false,
  idleTimeoutSeconds: 300,
  timeoutSeconds: 30,
  maxSnapshotChars: 30_000,
};

/** `tools.browser` with defaults applied (also for configs that did not go through the schema). */
export function resolveBrowserSettings(config: OpenClawConfig | undefined): BrowserSettings {
  const raw = (config?.tools as { browser?: Record<string, unknown> } | undefined)?.browser;
  const num = (v: unknown, d: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : d);
  const exe = raw?.executablePath;
  return {
    executablePath: typeof exe === "string" && exe.trim() !== "" ? exe.trim() : undefined,
    headless: raw?.headless !== false,
    allowPrivateNetwork: raw?.allowPrivateNetwork === true,
    idleTimeoutSeconds: num(raw?.idleTimeoutSeconds, BROWSER_DEFAULTS.idleTimeoutSeconds),
    timeoutSeconds: num(raw?.timeoutSeconds, BROWSER_DEFAULTS.timeoutSeconds),
    maxSnapshotChars: num(raw?.maxSnapshotChars, BROWSER_DEFAULTS.maxSnapshotChars),
  };
}
