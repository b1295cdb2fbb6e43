import path from "node:path";
import { DEFAULT_SKILL_LIMITS } from "./config.js";

/** What the prompt needs of a skill; a SkillRecord fits. */
export interface PromptSkill {
  name: string;
  description: string;
  /** Absolute path of SKILL.md. */
  path: string;
  /** false: left out. */
  eligible?: boolean;
  /** true: left out (the skill is for explicit invocation only). */
  disableModelInvocation?: boolean;
}

export interface SkillsPromptOptions {
  /** Upper bound on the length of the returned section. Default 18000 (`maxSkillsPromptChars`). */
  maxChars?: number;
  /** At most this many skills are listed. Default 150 (`maxSkillsInPrompt`). */
  maxSkills?: number;
  /** When given, locations under it are written as `~/...`. */
  home?: string;
}

const HEADER =
  "## Skills\n\n" +
  "A skill is a SKILL.md file of instructions for one kind of task. Before replying, scan the " +
  "descriptions in <available_skills>. If exactly one skill clearly applies, read its SKILL.md " +
  "at the listed <location> with the read tool and follow it. If several might apply, choose the " +
  "most specific one. If none applies, read none. Never read more than one SKILL.md up front; " +
  "read another only once the task shows it needs it.\n\n";
const OPEN = "<available_skills>\n";
const CLOSE = "</available_skills>";
const DESC_TAGS = "<description></description>".length;
/** Shorter than this, a shortened description says too little to be worth its tags. */
const MIN_DESC_CHARS = 12;

/**
 * The Skills section of the system prompt: a short instruction, then `<available_skills>` with
 * one `<skill><name/><description/><location/></skill>` per eligible, model-invocable skill, in the
 * order given (XML-escaped; the location is the SKILL.md path). Skill bodies are never included.
 *
 * Returns "" when no skill qualifies or not even one compact entry fits. At most `maxSkills` are
 * listed. When the full list is longer than `maxChars`, descriptions are dropped first and as many
 * names and locations as fit are kept; budget left over is then shared out as evenly shortened
 * descriptions. The result never exceeds `maxChars`; a note says when the list was cut.
 */
export function buildSkillsPromptSection(skills: readonly PromptSkill[], options: SkillsPromptOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_SKILL_LIMITS.maxSkillsPromptChars;
  const maxSkills = options.maxSkills ?? DEFAULT_SKILL_LIMITS.maxSkillsInPrompt;
  const visible = skills.filter((s) => s.eligible !== false && s.disableModelInvocation !== true);
  if (visible.length === 0 || maxSkills <= 0) return "";
  const total = visible.length;
  const listed = visible.slice(0, maxSkills).map((s) => ({
    name: escapeXml(s.name),
    location: escapeXml(compactHome(s.path, options.home)),
    description: s.description,
  }));

  const full = assemble(
    listed.map((s) => entry(s.name, s.location, s.description)),
    note(listed.length, total, false),
  );
  if (full.length <= maxChars) return full;

  // Compact: identities first. Try with the note for "all listed"; if they do not all fit, size
  // the note for the widest counts so that it can never overrun the budget.
  const compactCosts = listed.map((s) => entry(s.name, s.location, "").length + 1);
  const fit = (noteText: string): { shown: number; budget: number } => {
    let budget = maxChars - assemble([], noteText).length;
    let shown = 0;
    while (shown < listed.length && (compactCosts[shown] as number) <= budget) {
      budget -= compactCosts[shown] as number;
      shown += 1;
    }
    return { shown, budget };
  };
  let { shown, budget } = fit(note(listed.length, total, true));
  if (shown < listed.length) ({ shown, budget } = fit(note(total, total, true, true)));
  if (shown === 0) return "";
  const kept = listed.slice(0, shown);

  let cap = 0;
  if (shown === listed.length) {
    const longest = Math.max(...kept.map((s) => s.description.length));
    const cost = (limit: number): number =>
      kept.reduce((sum, s) => {
        const d = shorten(s.description, limit);
        return sum + (d === "" ? 0 : escapeXml(d).length + DESC_TAGS);
      }, 0);
    let lo = 0;
    let hi = longest;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (cost(mid) <= budget) lo = mid;
      else hi = mid - 1;
    }
    cap = lo;
  }
  const out = assemble(
    kept.map((s) => entry(s.name, s.location, shorten(s.description, cap))),
    note(shown, total, true),
  );
  return out.length <= maxChars ? out : "";
}

function entry(name: string, location: string, description: string): string {
  const desc = description === "" ? "" : `<description>${escapeXml(description)}</description>`;
  return `<skill><name>${name}</name>${desc}<location>${location}</location></skill>`;
}

function assemble(entries: string[], noteText: string): string {
  return HEADER + noteText + OPEN + entries.map((e) => `${e}\n`).join("") + CLOSE;
}

function note(shown: number, total: number, compact: boolean, countAnyway = false): string {
  if (shown >= total && !compact) return "";
  const parts: string[] = [];
  if (shown < total || countAnyway) parts.push(`only ${shown} of ${total} skills are listed`);
  if (compact) parts.push("descriptions are shortened or left out");
  return `Note: ${parts.join(" and ")} to fit the prompt budget (\`openclaw skills check\` shows them all).\n\n`;
}

/** Cuts a description to at most `limit` characters, ending in an ellipsis; "" when too short. */
function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit < MIN_DESC_CHARS) return "";
  let cut = text.slice(0, limit - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Escapes the five XML special characters. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** Writes a path under `home` as `~/...`; other paths are returned unchanged. */
export function compactHome(p: string, home: string | undefined): string {
  if (!home) return p;
  const base = home.endsWith(path.sep) ? home.slice(0, -1) : home;
  if (p === base) return "~";
  return p.startsWith(base + path.sep) ? `~${p.slice(base.length)}` : p;
}
