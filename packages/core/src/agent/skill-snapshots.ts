import path from "node:path";
import type { OpenClawConfig } from "../config/index.js";

/** What a session gets from the skills: the prompt section, the files `read` may open, the exec env. */
export interface SkillSnapshot {
  section: string;
  /** SKILL.md paths as the prompt shows them (and absolute) -> the absolute path. */
  files: ReadonlyMap<string, string>;
  env: Record<string, string>;
  /** Eligible skills with `user-invocable` (default true): the `/name` chat commands. */
  commands: readonly SkillCommand[];
}

/** A skill a person may invoke as `/name [args]` in a chat. */
export interface SkillCommand {
  name: string;
  description: string;
  /** Absolute path of its SKILL.md. */
  path: string;
}

/** How long one skill discovery serves new sessions of the same agent. */
const SKILL_DISCOVERY_TTL_MS = 5000;

/**
 * The skills of each session: the prompt section, the SKILL.md files `read` may open, and the
 * environment from `skills.entries` (env, and apiKey as the skill's primaryEnv; never overriding
 * a variable the process already has) that exec passes explicitly. Snapshotted per session so the
 * prompt stays stable; discovery is shared by an agent's sessions for a few seconds.
 */
export class SkillSnapshots {
  private readonly perSession = new Map<string, SkillSnapshot>();
  private readonly perAgent = new Map<string, { at: number; snapshot: Promise<SkillSnapshot> }>();

  constructor(private readonly options: { config: OpenClawConfig; stateDir: string; env: NodeJS.ProcessEnv }) {}

  async forSession(agentId: string, workspaceDir: string, sessionId: string): Promise<SkillSnapshot> {
    const cached = this.perSession.get(sessionId);
    if (cached !== undefined) return cached;
    const snapshot = await this.forAgent(agentId, workspaceDir);
    if (this.perSession.size > 512) this.perSession.clear();
    this.perSession.set(sessionId, snapshot);
    return snapshot;
  }

  /** The agent's skills as discovered now (shared for a few seconds), not tied to a session. */
  forAgent(agentId: string, workspaceDir: string): Promise<SkillSnapshot> {
    const now = Date.now();
    let shared = this.perAgent.get(agentId);
    if (!shared || now - shared.at > SKILL_DISCOVERY_TTL_MS) {
      shared = { at: now, snapshot: this.discover(agentId, workspaceDir) };
      shared.snapshot.catch(() => this.perAgent.delete(agentId));
      this.perAgent.set(agentId, shared);
    }
    return shared.snapshot;
  }

  private async discover(agentId: string, workspaceDir: string): Promise<SkillSnapshot> {
    // Loaded on the first turn, not at gateway start (skills bring the YAML parser).
    const { buildSkillsPromptSection, compactHome, eligibleSkills, skillExecEnv } = await import("../skills/index.js");
    const { config, stateDir, env: processEnv } = this.options;
    const home = processEnv.HOME ?? "";
    const skills = await eligibleSkills({ workspaceDir, stateDir, home, config, agentId, env: processEnv });
    const limits = config.skills.limits;
    const section = buildSkillsPromptSection(skills, { maxChars: limits.maxSkillsPromptChars, maxSkills: limits.maxSkillsInPrompt, home });
    // exec gets a scrubbed environment: the variables the skills need are passed explicitly.
    const env = skillExecEnv(skills, config, processEnv);
    const files = new Map<string, string>();
    for (const s of skills) {
      const abs = path.resolve(s.path);
      files.set(abs, abs);
      files.set(compactHome(abs, home), abs);
    }
    const commands = skills
      .filter((s) => s.userInvocable)
      .map((s) => ({ name: s.name, description: s.description, path: path.resolve(s.path) }));
    return { section, files, env, commands };
  }
}
