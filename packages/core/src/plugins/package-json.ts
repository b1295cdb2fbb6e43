import { readFileSync } from "node:fs";
import path from "node:path";

/** The package.json in `dir` as an object; undefined when it is missing, unreadable or not an object. */
export async function readPackageJson(dir: string): Promise<Record<string, unknown> | undefined> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A string field of the package.json in `dir` (`name`, `version`), or undefined. */
export async function packageField(dir: string, field: string): Promise<string | undefined> {
  const value = (await readPackageJson(dir))?.[field];
  return typeof value === "string" ? value : undefined;
}
