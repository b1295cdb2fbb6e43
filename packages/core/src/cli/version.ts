import { readFileSync } from "node:fs";

/** The version of @openclaw/core, read from its package.json at run time. */
export function coreVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
