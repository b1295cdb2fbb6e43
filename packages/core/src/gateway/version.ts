import { readFileSync } from "node:fs";

/** The version of @openclaw/core (from its package.json, two folders up from src/ or dist/). */
export function gatewayVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}
