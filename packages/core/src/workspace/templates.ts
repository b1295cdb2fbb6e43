import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BOOTSTRAP_FILE_NAME, TEMPLATE_FILE_NAMES } from "./bootstrap-files.js";

/** Names of every file that has a packaged template: the six standard files plus BOOTSTRAP.md. */
export const TEMPLATED_FILE_NAMES = [...TEMPLATE_FILE_NAMES, BOOTSTRAP_FILE_NAME] as const;
export type TemplatedFileName = (typeof TEMPLATED_FILE_NAMES)[number];

/** Folder of the packaged templates: `<package>/assets/templates` (same relative spot from src/ and dist/). */
export function workspaceTemplatesDir(): string {
  return fileURLToPath(new URL("../../assets/templates/", import.meta.url));
}

let cache: Promise<ReadonlyMap<TemplatedFileName, Buffer>> | undefined;

/** The packaged template bytes, keyed by file name (read once per process). */
export function loadWorkspaceTemplates(): Promise<ReadonlyMap<TemplatedFileName, Buffer>> {
  cache ??= (async () => {
    const dir = workspaceTemplatesDir();
    const entries = await Promise.all(TEMPLATED_FILE_NAMES.map(async (name) => [name, await readFile(path.join(dir, name))] as const));
    return new Map(entries);
  })();
  cache.catch(() => (cache = undefined));
  return cache;
}
