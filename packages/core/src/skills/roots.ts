import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SkillSource } from "./types.js";

/** A directory searched for skills. */
export interface SkillRoot {
  source: SkillSource;
  dir: string;
  /**
   * When true, a symlinked folder inside this root must resolve inside it (or inside one of
   * `skills.load.allowSymlinkTargets`); managed, personal and bundled roots may link anywhere.
   */
  contained: boolean;
}

/** The skills shipped with @openclaw/core (`<package>/assets/skills`), from src/ or dist/ alike. */
export function defaultBundledSkillsDir(): string {
  return fileURLToPath(new URL("../../assets/skills", import.meta.url));
}

export interface SkillRootsInput {
  workspaceDir: string;
  stateDir: string;
  home: string;
  bundledDir: string;
  /** `skills.load.extraDirs` then plugin skill folders, unexpanded. */
  extraDirs: string[];
}

/**
 * Every root in precedence order, highest first: `<workspace>/skills`, `<workspace>/.agents/skills`,
 * `~/.agents/skills`, `<stateDir>/skills`, bundled, then the extra folders. `~` is expanded in
 * extra folders and relative ones resolve against the state directory. A directory reached twice
 * (say, a workspace that is the home directory) is searched once, at its higher rank.
 */
export function resolveSkillRoots(input: SkillRootsInput): SkillRoot[] {
  const expand = (p: string): string => {
    if (p === "~") return input.home;
    if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(input.home, p.slice(2));
    return path.resolve(input.stateDir, p);
  };
  const all: SkillRoot[] = [
    { source: "workspace", dir: path.join(input.workspaceDir, "skills"), contained: true },
    { source: "project", dir: path.join(input.workspaceDir, ".agents", "skills"), contained: true },
    { source: "personal", dir: path.join(input.home, ".agents", "skills"), contained: false },
    { source: "managed", dir: path.join(input.stateDir, "skills"), contained: false },
    { source: "bundled", dir: input.bundledDir, contained: false },
    ...input.extraDirs.map((d): SkillRoot => ({ source: "extra", dir: expand(d), contained: true })),
  ];
  const seen = new Set<string>();
  return all
    .map((r) => ({ ...r, dir: path.resolve(r.dir) }))
    .filter((r) => {
      if (seen.has(r.dir)) return false;
      seen.add(r.dir);
      return true;
    });
}
