import { readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { expandUserPath } from "../paths.js";
import { formatMegabytes } from "./limits.js";

/** Largest included file, in bytes (2 MiB). */
export const MAX_INCLUDE_BYTES = 2 * 1024 * 1024;

/** Folders an included file may live in: the main config folder plus OPENCLAW_INCLUDE_ROOTS. */
export interface IncludeRoots {
  /** The main config file's folder, as written and after realpath. */
  configDir: string;
  /** `configDir` after realpath (equal to it when the folder does not exist). */
  realConfigDir: string;
  /** Every allowed folder in both lexical and realpath form. */
  dirs: string[];
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Builds the allowed include folders for a main config file; roots come from `env.OPENCLAW_INCLUDE_ROOTS`. */
export async function resolveIncludeRoots(mainFile: string, env: NodeJS.ProcessEnv): Promise<IncludeRoots> {
  const configDir = path.dirname(path.resolve(mainFile));
  const extra = (env.OPENCLAW_INCLUDE_ROOTS ?? "")
    .split(path.delimiter)
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => path.resolve(expandUserPath(s, env.HOME)));
  const dirs = new Set<string>();
  for (const dir of [configDir, ...extra]) {
    dirs.add(dir);
    dirs.add(await realOrSelf(dir));
  }
  return { configDir, realConfigDir: await realOrSelf(configDir), dirs: [...dirs] };
}

/** True when `target` is `dir` itself or lies below it. */
export function isInside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Outcome of locating and reading one `$include` target. */
export type IncludeRead = { ok: true; real: string; text: string } | { ok: false; reason: string };

/**
 * Resolves `spec` against `baseDir`, follows symlinks, and checks that the real path stays inside
 * an allowed root, is a regular file, and is at most 2 MiB; then reads it.
 */
export async function readIncludedFile(spec: string, baseDir: string, roots: IncludeRoots, env: NodeJS.ProcessEnv): Promise<IncludeRead> {
  const lexical = path.resolve(baseDir, expandUserPath(spec, env.HOME));
  const outside = (p: string): IncludeRead => ({
    ok: false,
    reason:
      `resolves to ${p}, outside the config folder ${roots.configDir}. ` +
      `Move the file into that folder, or add its folder to OPENCLAW_INCLUDE_ROOTS ` +
      `(several folders separated by "${path.delimiter}").`,
  });
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
      return { ok: false, reason: `cannot be resolved (${(err as NodeJS.ErrnoException).code ?? String(err)}).` };
    }
    if (!roots.dirs.some((d) => isInside(d, lexical))) return outside(lexical);
    return { ok: false, reason: `not found (looked for ${lexical}); fix the path, which is relative to the including file's folder.` };
  }
  if (!roots.dirs.some((d) => isInside(d, real))) return outside(real);
  let info: Stats;
  try {
    info = statSync(real);
  } catch (err) {
    return { ok: false, reason: `${real} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).` };
  }
  if (!info.isFile()) return { ok: false, reason: `${real} is not a regular file.` };
  if (info.size > MAX_INCLUDE_BYTES) {
    return {
      ok: false,
      reason: `${real} is ${formatMegabytes(info.size)}; an included file may be at most ${formatMegabytes(MAX_INCLUDE_BYTES)}. Split it into smaller includes.`,
    };
  }
  try {
    return { ok: true, real, text: readFileSync(real, "utf8") };
  } catch (err) {
    return { ok: false, reason: `${real} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).` };
  }
}
