import path from "node:path";
import { createWhich } from "./binaries.js";
import {
  resolveAgentSkillAllowlist,
  resolveAllowBundled,
  resolveAllowSymlinkTargets,
  resolveExtraDirs,
  resolveSkillLimits,
  type LooseConfig,
} from "./config.js";
import { ineligibilityReasons } from "./eligibility.js";
import { loadSkillCandidate, type SkillCandidate } from "./load.js";
import { defaultBundledSkillsDir, resolveSkillRoots } from "./roots.js";
import { scanSkillRoot } from "./scan.js";
import type { SkillRecord, WhichFn } from "./types.js";
import { resolveDefaultAgentId } from "../agents/index.js";
import { resolveWorkspaceDir } from "../workspace/index.js";

export interface DiscoverSkillsOptions {
  /**
   * The agent's workspace. Default: `agents.entries.<id>.workspace`, else
   * `agents.defaults.workspace`, else `OPENCLAW_WORKSPACE_DIR`, else `<stateDir>/workspace`
   * (`<stateDir>/workspace-<id>` for a non-default agent among several).
   */
  workspaceDir?: string;
  /** The OpenClaw state directory (`resolvePaths().stateDir`). */
  stateDir: string;
  /** The user's home, for `~/.agents/skills` and `~` in config paths. */
  home: string;
  /** The loaded config (raw or validated). */
  config: LooseConfig;
  /** Whose allowlist applies. Default: the default agent (see resolveDefaultAgentId). */
  agentId?: string;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Environment for `requires.env`, PATH and `OPENCLAW_BUNDLED_SKILLS_DIR`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** PATH lookup for `requires.bins`/`anyBins`. Default: scans `env.PATH` without spawning. */
  which?: WhichFn;
  /**
   * Folder of bundled skills. Default: `env.OPENCLAW_BUNDLED_SKILLS_DIR`, else the `assets/skills`
   * folder shipped with @openclaw/core.
   */
  bundledDir?: string;
  /** Skill folders contributed by plugins; searched after `skills.load.extraDirs`. */
  pluginSkillDirs?: string[];
}

export interface DiscoverSkillsResult {
  /** The agent whose allowlist was applied. */
  agentId: string;
  /** The workspace searched (given or resolved). */
  workspaceDir: string;
  /**
   * Every candidate in precedence order (source rank, then path), eligible or not. Names are
   * unique among eligible skills: a lower-ranked namesake carries `shadowedBy`.
   */
  skills: SkillRecord[];
  /** Problems with roots rather than skills (limits reached, untrusted symlinks). */
  warnings: string[];
}

/**
 * Finds every skill visible from a workspace and decides, for each, whether it is eligible and
 * why not. Roots, highest precedence first: `<workspace>/skills`, `<workspace>/.agents/skills`,
 * `~/.agents/skills`, `<stateDir>/skills`, bundled, `skills.load.extraDirs` (then plugin folders).
 * The first well-formed skill of a name wins even when it is itself ineligible; malformed
 * SKILL.md files are reported (ineligible, with the reason and file) and shadow nothing.
 */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<DiscoverSkillsResult> {
  const { config, home } = options;
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const agentId = (options.agentId ?? resolveDefaultAgentId(config)).toLowerCase();
  const limits = resolveSkillLimits(config, agentId);
  const expand = (p: string): string =>
    p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : path.resolve(options.stateDir, p);

  const workspaceDir =
    options.workspaceDir ??
    resolveWorkspaceDir(config as never, agentId, { stateDir: options.stateDir, configPath: "" }, { env: { ...env, HOME: home } });
  const roots = resolveSkillRoots({
    workspaceDir,
    stateDir: options.stateDir,
    home,
    bundledDir: options.bundledDir ?? (env.OPENCLAW_BUNDLED_SKILLS_DIR || defaultBundledSkillsDir()),
    extraDirs: [...resolveExtraDirs(config), ...(options.pluginSkillDirs ?? [])],
  });
  const allowSymlinkTargets = resolveAllowSymlinkTargets(config).map(expand);

  const warnings: string[] = [];
  const candidates: SkillCandidate[] = [];
  for (const root of roots) {
    const scan = await scanSkillRoot(root, {
      maxCandidates: limits.maxCandidatesPerRoot,
      maxSkills: limits.maxSkillsLoadedPerSource,
      allowSymlinkTargets,
    });
    warnings.push(...scan.warnings);
    for (const dir of scan.dirs) {
      candidates.push(await loadSkillCandidate(dir, root, limits.maxSkillFileBytes));
    }
  }

  const ctx = {
    config,
    env,
    platform,
    which: options.which ?? createWhich({ env, platform }),
    agentId,
    allowBundled: resolveAllowBundled(config),
    allowlist: resolveAgentSkillAllowlist(config, agentId),
  };
  const winners = new Map<string, SkillCandidate>();
  const skills = candidates.map((c): SkillRecord => {
    if (c.error !== undefined) {
      return { ...c, eligible: false, reasons: [`${c.error} (${c.path})`] };
    }
    const winner = winners.get(c.name);
    if (winner) {
      return { ...c, eligible: false, reasons: [`shadowed by ${winner.dir}`], shadowedBy: winner.dir };
    }
    winners.set(c.name, c);
    const reasons = ineligibilityReasons(c, ctx);
    return { ...c, eligible: reasons.length === 0, reasons };
  });
  return { agentId, workspaceDir, skills, warnings };
}

/** The eligible skills only (unique names, precedence order); see discoverSkills. */
export async function eligibleSkills(options: DiscoverSkillsOptions): Promise<SkillRecord[]> {
  return (await discoverSkills(options)).skills.filter((s) => s.eligible);
}
