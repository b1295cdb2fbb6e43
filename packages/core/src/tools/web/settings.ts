import type { OpenClawConfig } from "../../config/index.js";

export interface WebFetchSettings {
  /** Default false. */
  allowPrivateNetwork: boolean;
  /** Default 2097152 (2 MiB). */
  maxBytes: number;
  /** Default 50000. */
  maxChars: number;
  /** Default 30. */
  timeoutSeconds: number;
}

export const WEB_FETCH_DEFAULTS: Readonly<WebFetchSettings> = {
  allowPrivateNetwork: false,
  maxBytes: 2_097_152,
  maxChars: 50_000,
  timeoutSeconds: 30,
};

/** `tools.web.fetch` with defaults applied. */
export function resolveWebFetchSettings(config: OpenClawConfig | undefined): WebFetchSettings {
  const raw = config?.tools?.web?.fetch;
  const num = (v: unknown, d: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : d);
  return {
    allowPrivateNetwork: raw?.allowPrivateNetwork === true,
    maxBytes: num(raw?.maxBytes, WEB_FETCH_DEFAULTS.maxBytes),
    maxChars: num(raw?.maxChars, WEB_FETCH_DEFAULTS.maxChars),
    timeoutSeconds: num(raw?.timeoutSeconds, WEB_FETCH_DEFAULTS.timeoutSeconds),
  };
}
