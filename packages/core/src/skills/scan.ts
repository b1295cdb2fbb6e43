import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { SkillRoot } from "./roots.js";

/** How deep below a root a skill folder may sit (`root/a/b/c/d/e/f/SKILL.md` is the deepest). */
export const MAX_SKILL_DEPTH = 6;

export interface ScanLimits {
  /** Directories examined below the root. */
  maxCandidates: number;
  /** SKILL.md files returned. */
  maxSkills: number;
  /** Real paths a symlinked folder of a contained root may resolve into. */
  allowSymlinkTargets: string[];
}

export interface ScanResult {
  /** Folders holding a SKILL.md, in sorted depth-first order. */
  dirs: string[];
  warnings: string[];
}

const SKIP = new Set(["node_modules"]);

/**
 * Finds the folders holding a SKILL.md under a root, down to MAX_SKILL_DEPTH. A folder with a
 * SKILL.md is a skill: nothing below it is searched. Hidden folders and node_modules are skipped.
 * A missing root yields nothing. Symlink loops are cut; see SkillRoot.contained for escapes.
 */
export async function scanSkillRoot(root: SkillRoot, limits: ScanLimits): Promise<ScanResult> {
  const warnings: string[] = [];
  const dirs: string[] = [];
  let rootReal: string;
  try {
    rootReal = await realpath(root.dir);
    if (!(await stat(rootReal)).isDirectory()) return { dirs, warnings };
  } catch {
    return { dirs, warnings };
  }
  const allowed = [rootReal, ...(await realpaths(limits.allowSymlinkTargets))];
  const visited = new Set<string>([rootReal]);
  let candidates = 0;
  let stopped = false;

  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (stopped) return;
      if (entry.name.startsWith(".") || SKIP.has(entry.name)) continue;
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const child = path.join(dir, entry.name);
      let real: string;
      try {
        real = await realpath(child);
        if (!(await stat(real)).isDirectory()) continue;
      } catch {
        continue;
      }
      if (visited.has(real)) continue;
      visited.add(real);
      if (root.contained && !allowed.some((a) => isInside(real, a))) {
        warnings.push(
          `skipped ${child}: it links to ${real}, outside ${root.dir}; list the target in skills.load.allowSymlinkTargets to trust it`,
        );
        continue;
      }
      candidates += 1;
      if (candidates > limits.maxCandidates) {
        warnings.push(`stopped searching ${root.dir} after ${limits.maxCandidates} folders (skills.limits.maxCandidatesPerRoot)`);
        stopped = true;
        return;
      }
      if (await isFile(path.join(child, "SKILL.md"))) {
        if (dirs.length >= limits.maxSkills) {
          warnings.push(`loaded only ${limits.maxSkills} skills from ${root.dir} (skills.limits.maxSkillsLoadedPerSource)`);
          stopped = true;
          return;
        }
        dirs.push(child);
        continue;
      }
      if (depth < MAX_SKILL_DEPTH) await walk(child, depth + 1);
    }
  };
  await walk(root.dir, 1);
  return { dirs, warnings };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function realpaths(dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const d of dirs) {
    try {
      out.push(await realpath(d));
    } catch {
      // A target that does not exist trusts nothing.
    }
  }
  return out;
}
