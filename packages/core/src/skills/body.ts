import { readFile } from "node:fs/promises";
import path from "node:path";
import { stripFrontmatter } from "./frontmatter.js";

/**
 * Reads a skill's instructions: SKILL.md without its front matter, with every `{baseDir}`
 * replaced by the skill folder. Accepts a SkillRecord (or anything with `path`) or the path of
 * SKILL.md itself. Read errors propagate.
 */
export async function readSkillBody(skill: { path: string; dir?: string } | string): Promise<string> {
  const file = typeof skill === "string" ? skill : skill.path;
  const dir = typeof skill === "string" || skill.dir === undefined ? path.dirname(file) : skill.dir;
  const text = await readFile(file, "utf8");
  return stripFrontmatter(text).replaceAll("{baseDir}", dir);
}
