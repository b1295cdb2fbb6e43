import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { readGating } from "./metadata.js";
import type { SkillRoot } from "./roots.js";
import type { SkillRecord } from "./types.js";

/** A SkillRecord before eligibility is decided. */
export type SkillCandidate = Omit<SkillRecord, "eligible" | "reasons" | "shadowedBy">;

/**
 * Reads `<dir>/SKILL.md` into a candidate. Every problem (too large, unreadable, links outside
 * its folder, malformed front matter or metadata) is recorded in `error`, never thrown.
 */
export async function loadSkillCandidate(dir: string, root: SkillRoot, maxFileBytes: number): Promise<SkillCandidate> {
  const file = path.join(dir, "SKILL.md");
  const folderName = path.basename(dir);
  const base: SkillCandidate = {
    name: folderName,
    description: "",
    key: folderName,
    source: root.source,
    root: root.dir,
    dir,
    path: file,
    userInvocable: true,
    disableModelInvocation: false,
    frontmatter: {},
  };
  const fail = (error: string): SkillCandidate => ({ ...base, error });

  let text: string;
  try {
    const [realFile, realDir] = await Promise.all([realpath(file), realpath(dir)]);
    if (!realFile.startsWith(realDir + path.sep)) {
      return fail(`SKILL.md links to ${realFile}, outside its folder`);
    }
    const size = (await stat(realFile)).size;
    if (size > maxFileBytes) {
      return fail(`SKILL.md is ${size} bytes, over skills.limits.maxSkillFileBytes (${maxFileBytes})`);
    }
    text = await readFile(realFile, "utf8");
  } catch (err) {
    return fail(`cannot read SKILL.md: ${(err as Error).message}`);
  }

  const fm = parseFrontmatter(text);
  if (!fm.ok) return fail(fm.error);
  const data = fm.data;
  const gating = readGating(data);
  if (!gating.ok) return { ...base, frontmatter: data, error: gating.error };

  const name = scalar(data.name);
  if (name === null) return { ...base, frontmatter: data, error: "name must be a string" };
  const description = scalar(data.description);
  if (description === null) {
    return { ...base, frontmatter: data, error: "description must be a string" };
  }
  const userInvocable = flag(data["user-invocable"], true);
  const disableModel = flag(data["disable-model-invocation"], false);
  if (userInvocable === null || disableModel === null) {
    return {
      ...base,
      frontmatter: data,
      error: "user-invocable and disable-model-invocation must be true or false",
    };
  }
  const finalName = name === undefined || name.trim() === "" ? folderName : name.trim();
  const record: SkillCandidate = {
    ...base,
    name: finalName,
    description: (description ?? "").trim(),
    key: gating.gating?.skillKey ?? finalName,
    userInvocable,
    disableModelInvocation: disableModel,
    frontmatter: data,
  };
  if (gating.gating) record.gating = gating.gating;
  return record;
}

/** A string (numbers are stringified), undefined when absent, null when of another type. */
function scalar(v: unknown): string | undefined | null {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return null;
}

/** A boolean (the strings "true"/"false" too), the fallback when absent, null otherwise. */
function flag(v: unknown, fallback: boolean): boolean | null {
  if (v === undefined || v === null) return fallback;
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return null;
}
