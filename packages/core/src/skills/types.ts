/** Where a skill was found. Listed highest precedence first. */
export type SkillSource =
  /** `<workspace>/skills` */
  | "workspace"
  /** `<workspace>/.agents/skills` */
  | "project"
  /** `~/.agents/skills` */
  | "personal"
  /** `<stateDir>/skills` */
  | "managed"
  /** shipped with @openclaw/core under `assets/skills` */
  | "bundled"
  /** `skills.load.extraDirs` and directories contributed by plugins */
  | "extra";

/** Precedence order of the sources, highest first. */
export const SKILL_SOURCES: readonly SkillSource[] = ["workspace", "project", "personal", "managed", "bundled", "extra"];

/** The gating block of a skill, read from `metadata.openclaw` (or legacy `metadata.clawdbot`). */
export interface SkillGating {
  /** Include whenever `os` matches, bypassing every `requires` check. */
  always: boolean;
  /** Platforms the skill runs on (`process.platform` values); empty means any. */
  os: string[];
  requires: {
    /** Every one must be an executable on PATH. */
    bins: string[];
    /** At least one must be an executable on PATH (ignored when empty). */
    anyBins: string[];
    /** Each must be set in the environment or supplied by `skills.entries.<key>`. */
    env: string[];
    /** Dotted paths in the config that must be truthy. */
    config: string[];
  };
  /** The env var that `skills.entries.<key>.apiKey` supplies. */
  primaryEnv?: string;
  /** Config key under `skills.entries`; defaults to the skill name. */
  skillKey?: string;
  emoji?: string;
  homepage?: string;
}

/** One SKILL.md found during discovery, eligible or not. */
export interface SkillRecord {
  /** The front matter `name`, or the folder name when absent. */
  name: string;
  /** The front matter `description` ("" when absent). */
  description: string;
  /** Key under `skills.entries`: `metadata.openclaw.skillKey`, else the name. */
  key: string;
  source: SkillSource;
  /** The root directory the skill was found under. */
  root: string;
  /** Absolute path of the skill folder (what `{baseDir}` expands to). */
  dir: string;
  /** Absolute path of SKILL.md. */
  path: string;
  /** True when the skill may be offered to the agent. */
  eligible: boolean;
  /** Why the skill is not eligible; empty when it is. */
  reasons: string[];
  /** Folder of the higher-precedence skill with the same name, when this one lost. */
  shadowedBy?: string;
  /** Set when SKILL.md could not be parsed; such a skill never shadows another. */
  error?: string;
  /** Parsed gating metadata; absent when the skill declares none (or is malformed). */
  gating?: SkillGating;
  /** Front matter `user-invocable` (default true): exposed as a `/name` command. */
  userInvocable: boolean;
  /** Front matter `disable-model-invocation` (default false): kept out of the prompt list. */
  disableModelInvocation: boolean;
  /** The raw front matter mapping ({} when malformed). */
  frontmatter: Record<string, unknown>;
}

/** Checks whether an executable is on PATH. */
export type WhichFn = (bin: string) => boolean;
