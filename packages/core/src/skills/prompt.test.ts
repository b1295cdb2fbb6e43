import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSkillsPromptSection, type PromptSkill } from "./index.js";

const HOME = "/home/ada";
const mk = (name: string, description: string, extra: Partial<PromptSkill> = {}): PromptSkill => ({
  name,
  description,
  path: `${HOME}/.openclaw/skills/${name}/SKILL.md`,
  ...extra,
});
const entries = (out: string) => out.match(/<skill>.*<\/skill>/g) ?? [];

describe("buildSkillsPromptSection", () => {
  it("returns '' when no skill is eligible and model-invocable", () => {
    expect(buildSkillsPromptSection([])).toBe("");
    expect(buildSkillsPromptSection([mk("a", "x", { eligible: false }), mk("b", "y", { disableModelInvocation: true })])).toBe("");
  });

  it("lists name, description and ~-compacted location, XML-escaped, after the instruction", () => {
    const out = buildSkillsPromptSection(
      [mk("a&b", `Use <when> "asked" & it's late`), { name: "w", description: "", path: "/srv/w/SKILL.md" }],
      { home: HOME },
    );
    expect(out).toMatch(/^## Skills\n/);
    expect(out).toMatch(/exactly one skill clearly applies, read its SKILL\.md/);
    expect(out).toMatch(/Never read more than one SKILL\.md up front/);
    expect(entries(out)).toEqual([
      "<skill><name>a&amp;b</name><description>Use &lt;when&gt; &quot;asked&quot; &amp; it&apos;s late</description>" +
        "<location>~/.openclaw/skills/a&amp;b/SKILL.md</location></skill>",
      "<skill><name>w</name><location>/srv/w/SKILL.md</location></skill>",
    ]);
    expect(out).toMatch(/<available_skills>\n[\s\S]*\n<\/available_skills>$/);
    expect(out).not.toMatch(/Note:/);
  });

  it("caps the list at maxSkills and says so", () => {
    const skills = Array.from({ length: 5 }, (_, i) => mk(`s${i}`, "d"));
    const out = buildSkillsPromptSection(skills, { maxSkills: 3 });
    expect(entries(out)).toHaveLength(3);
    expect(out).toMatch(/only 3 of 5 skills are listed/);
    expect(buildSkillsPromptSection(skills, { maxSkills: 0 })).toBe("");
  });

  it("over budget, keeps every identity and spends the rest on shortened descriptions", () => {
    const skills = Array.from({ length: 10 }, (_, i) => mk(`skill-${i}`, `${"word ".repeat(60)}end ${i}`));
    const full = buildSkillsPromptSection(skills);
    const compactOnly = buildSkillsPromptSection(skills.map((s) => ({ ...s, description: "" })));
    const maxChars = compactOnly.length + 600;
    expect(full.length).toBeGreaterThan(maxChars);
    const out = buildSkillsPromptSection(skills, { maxChars });
    expect(out.length).toBeLessThanOrEqual(maxChars);
    expect(entries(out)).toHaveLength(10);
    expect(out).toMatch(/descriptions are shortened or left out/);
    const descs = out.match(/<description>[^<]*<\/description>/g) ?? [];
    expect(descs).toHaveLength(10);
    for (const d of descs) expect(d).toMatch(/…<\/description>$/);
  });

  it("drops descriptions entirely when only the compact list fits, then drops skills", () => {
    const skills = Array.from({ length: 10 }, (_, i) => mk(`skill-${i}`, "a fairly long description ".repeat(5)));
    const compact = buildSkillsPromptSection(skills.map((s) => ({ ...s, description: "" })));
    const out = buildSkillsPromptSection(skills, { maxChars: compact.length + 120 });
    expect(entries(out)).toHaveLength(10);
    expect(out).not.toMatch(/<description>/);
    const fewer = buildSkillsPromptSection(skills, { maxChars: compact.length - 200 });
    expect(fewer.length).toBeLessThanOrEqual(compact.length - 200);
    expect(entries(fewer).length).toBeLessThan(10);
    expect(entries(fewer).length).toBeGreaterThan(0);
    expect(fewer).toMatch(/only \d+ of 10 skills are listed/);
    expect(buildSkillsPromptSection(skills, { maxChars: 200 })).toBe("");
  });

  it("never exceeds maxChars (property)", () => {
    const skill = fc.record({
      name: fc.string({ minLength: 1, maxLength: 30 }),
      description: fc.string({ maxLength: 400 }),
      path: fc.string({ minLength: 1, maxLength: 80 }),
    });
    fc.assert(
      fc.property(
        fc.array(skill, { maxLength: 40 }),
        fc.integer({ min: 0, max: 8000 }),
        fc.integer({ min: 0, max: 50 }),
        (skills, maxChars, maxSkills) => {
          const out = buildSkillsPromptSection(skills, { maxChars, maxSkills, home: "/h" });
          expect(out.length).toBeLessThanOrEqual(maxChars);
          if (out !== "") expect(entries(out).length).toBeLessThanOrEqual(maxSkills);
        },
      ),
      { numRuns: 300 },
    );
  });
});
