import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  defaultBundledSkillsDir,
  discoverSkills,
  eligibleSkills,
  readSkillBody,
  type DiscoverSkillsOptions,
  type SkillRecord,
} from "./index.js";

let tmp: string;
let home: string;
let stateDir: string;
let workspaceDir: string;
let bundledDir: string;
let extraDir: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "openclaw-skills-"));
  home = path.join(tmp, "home");
  stateDir = path.join(home, ".openclaw");
  workspaceDir = path.join(home, "ws");
  bundledDir = path.join(tmp, "bundled");
  extraDir = path.join(tmp, "extra");
  for (const d of [home, stateDir, workspaceDir, bundledDir, extraDir]) mkdirSync(d, { recursive: true });
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `<dir>/SKILL.md` with the given front matter lines (or raw text). */
function skill(dir: string, frontmatter: string | null, body = "Do the thing.\n"): string {
  mkdirSync(dir, { recursive: true });
  const text = frontmatter === null ? body : `---\n${frontmatter}\n---\n${body}`;
  writeFileSync(path.join(dir, "SKILL.md"), text);
  return dir;
}

function opts(over: Partial<DiscoverSkillsOptions> = {}): DiscoverSkillsOptions {
  return {
    workspaceDir,
    stateDir,
    home,
    bundledDir,
    config: {},
    env: { PATH: "" },
    platform: "linux",
    which: () => false,
    ...over,
  };
}

async function byName(over: Partial<DiscoverSkillsOptions> = {}): Promise<Map<string, SkillRecord>> {
  const { skills } = await discoverSkills(opts(over));
  return new Map(skills.filter((s) => !s.shadowedBy).map((s) => [s.name, s]));
}

const ROOTS = () =>
  [
    ["workspace", path.join(workspaceDir, "skills")],
    ["project", path.join(workspaceDir, ".agents", "skills")],
    ["personal", path.join(home, ".agents", "skills")],
    ["managed", path.join(stateDir, "skills")],
    ["bundled", bundledDir],
    ["extra", extraDir],
  ] as const;

describe("precedence", () => {
  it("the highest root wins for the same name, and every lower one is shadowed by it", async () => {
    const roots = ROOTS();
    for (const [source, root] of roots) skill(path.join(root, `dup-${source}`), `name: dup\ndescription: from ${source}`);
    const config = { skills: { load: { extraDirs: [extraDir] } } };
    for (let top = 0; top < roots.length; top++) {
      const { skills } = await discoverSkills(opts({ config }));
      const dups = skills.filter((s) => s.name === "dup");
      expect(dups.map((s) => s.source)).toEqual(roots.slice(top).map(([s]) => s));
      const [winner, ...losers] = dups;
      expect(winner?.eligible).toBe(true);
      expect(winner?.description).toBe(`from ${roots[top]?.[0]}`);
      for (const l of losers) {
        expect(l.eligible).toBe(false);
        expect(l.shadowedBy).toBe(winner?.dir);
        expect(l.reasons).toEqual([`shadowed by ${winner?.dir}`]);
      }
      rmSync(path.join(roots[top]![1], `dup-${roots[top]![0]}`), { recursive: true });
    }
  });

  it("an ineligible winner still shadows, and eligibleSkills returns unique names", async () => {
    skill(path.join(workspaceDir, "skills", "x"), "name: x\nmetadata:\n  openclaw:\n    requires:\n      bins: [nope]");
    skill(path.join(bundledDir, "x"), "name: x\ndescription: bundled");
    const { skills } = await discoverSkills(opts());
    expect(skills.map((s) => [s.source, s.eligible])).toEqual([
      ["workspace", false],
      ["bundled", false],
    ]);
    expect(await eligibleSkills(opts())).toEqual([]);
  });

  it("resolves ~ in extraDirs and ranks them after bundled skills", async () => {
    skill(path.join(home, "more", "m"), "name: m\ndescription: extra");
    const { skills } = await discoverSkills(opts({ config: { skills: { load: { extraDirs: ["~/more"] } } } }));
    expect(skills.map((s) => [s.name, s.source])).toEqual([["m", "extra"]]);
  });
});

describe("folders", () => {
  it("finds grouped folders by their front matter name, down to depth 6 only", async () => {
    const root = path.join(workspaceDir, "skills");
    skill(path.join(root, "personal", "research-v2"), "name: research\ndescription: grouped");
    skill(path.join(root, "a", "b", "c", "d", "e", "six"), "name: six");
    skill(path.join(root, "a", "b", "c", "d", "e", "f", "seven"), "name: seven");
    skill(path.join(root, "personal", "research-v2", "nested"), "name: nested");
    skill(path.join(root, ".hidden", "h"), "name: hidden");
    const names = [...(await byName()).keys()].sort();
    expect(names).toEqual(["research", "six"]);
  });

  it("falls back to the folder name when name is missing or blank", async () => {
    skill(path.join(bundledDir, "folder-a"), "description: no name here");
    skill(path.join(bundledDir, "folder-b"), "name: ''\ndescription: blank");
    const skills = await byName();
    expect(skills.get("folder-a")?.description).toBe("no name here");
    expect(skills.get("folder-b")?.eligible).toBe(true);
  });

  it("reads {baseDir} and strips front matter in readSkillBody", async () => {
    const dir = skill(path.join(bundledDir, "b"), "name: b", "Run {baseDir}/run.sh then {baseDir}/x.\n");
    const [rec] = (await discoverSkills(opts())).skills;
    expect(await readSkillBody(rec!)).toBe(`Run ${dir}/run.sh then ${dir}/x.\n`);
    expect(await readSkillBody(path.join(dir, "SKILL.md"))).toBe(`Run ${dir}/run.sh then ${dir}/x.\n`);
  });

  it("ships a bundled workspace-memory skill that is eligible by default", async () => {
    const skills = await eligibleSkills(opts({ bundledDir: defaultBundledSkillsDir() }));
    const memory = skills.find((s) => s.name === "workspace-memory");
    expect(memory?.source).toBe("bundled");
    expect(memory?.description).toMatch(/MEMORY\.md/);
    expect(await readSkillBody(memory!)).toMatch(/memory\/YYYY-MM-DD\.md/);
  });

  it("uses OPENCLAW_BUNDLED_SKILLS_DIR when no bundledDir is given", async () => {
    skill(path.join(extraDir, "z"), "name: z");
    const { skills } = await discoverSkills({ ...opts(), bundledDir: undefined, env: { OPENCLAW_BUNDLED_SKILLS_DIR: extraDir } });
    expect(skills.map((s) => [s.name, s.source])).toEqual([["z", "bundled"]]);
  });
});

describe("gating", () => {
  const gated = (meta: string) => `name: g\ndescription: gated\nmetadata:\n  openclaw:\n${meta}`;
  const check = async (meta: string, over: Partial<DiscoverSkillsOptions> = {}) => {
    skill(path.join(bundledDir, "g"), gated(meta));
    return (await byName(over)).get("g")!;
  };

  it("no metadata means eligible", async () => {
    skill(path.join(bundledDir, "plain"), "name: plain\ndescription: p");
    expect((await byName()).get("plain")).toMatchObject({ eligible: true, reasons: [] });
  });

  it("os filters by platform", async () => {
    const s = await check("    os: [darwin]");
    expect(s.reasons).toEqual(["os darwin only"]);
    expect((await byName({ platform: "darwin" })).get("g")?.eligible).toBe(true);
  });

  it("requires.bins needs every binary, anyBins at least one", async () => {
    const have = new Set(["git"]);
    const which = (b: string) => have.has(b);
    const s = await check("    requires:\n      bins: [git, ffmpeg]\n      anyBins: [rg, ag]", { which });
    expect(s.reasons).toEqual(["missing binary: ffmpeg", "missing binary: none of rg, ag"]);
    have.add("ffmpeg").add("ag");
    expect((await byName({ which })).get("g")?.eligible).toBe(true);
  });

  it("finds binaries on PATH without spawning, honouring the execute bit", async () => {
    const bin = path.join(tmp, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "tool"), "#!/bin/sh\n");
    skill(path.join(bundledDir, "g"), gated("    requires:\n      bins: [tool]"));
    const run = async () => (await byName({ which: undefined, env: { PATH: `/nonexistent:${bin}` } })).get("g")!;
    chmodSync(path.join(bin, "tool"), 0o644);
    expect((await run()).reasons).toEqual(["missing binary: tool"]);
    chmodSync(path.join(bin, "tool"), 0o755);
    expect((await run()).eligible).toBe(true);
  });

  it("requires.env is met by the environment, entries.env, or apiKey via primaryEnv", async () => {
    const meta = "    primaryEnv: API_KEY\n    requires:\n      env: [API_KEY, OTHER]";
    expect((await check(meta)).reasons).toEqual(["env API_KEY not set", "env OTHER not set"]);
    expect((await byName({ env: { API_KEY: "k", OTHER: "o" } })).get("g")?.eligible).toBe(true);
    expect((await byName({ env: { API_KEY: "", OTHER: "o" } })).get("g")?.reasons).toEqual(["env API_KEY not set"]);
    const viaEntry = { skills: { entries: { g: { env: { OTHER: "o" }, apiKey: "secret" } } } };
    expect((await byName({ config: viaEntry })).get("g")?.eligible).toBe(true);
    const viaRef = { skills: { entries: { g: { env: { OTHER: "o" }, apiKey: { source: "env", id: "MY_KEY" } } } } };
    expect((await byName({ config: viaRef })).get("g")?.reasons).toEqual(["env API_KEY not set"]);
    expect((await byName({ config: viaRef, env: { MY_KEY: "v" } })).get("g")?.eligible).toBe(true);
  });

  it("requires.config needs truthy dotted paths", async () => {
    const meta = "    requires:\n      config: [browser.enabled, channels.telegram]";
    expect((await check(meta, { config: { browser: { enabled: false } } })).reasons).toEqual([
      "config browser.enabled not set",
      "config channels.telegram not set",
    ]);
    const config = { browser: { enabled: true }, channels: { telegram: {} } };
    expect((await byName({ config })).get("g")?.eligible).toBe(true);
  });

  it("always bypasses requires but not os", async () => {
    const s = await check("    always: true\n    requires:\n      bins: [nope]\n      env: [NOPE]");
    expect(s.eligible).toBe(true);
    skill(path.join(bundledDir, "g"), gated("    always: true\n    os: [win32]\n    requires:\n      bins: [nope]"));
    expect((await byName()).get("g")?.reasons).toEqual(["os win32 only"]);
  });

  it("accepts metadata as a JSON5 string and the legacy clawdbot block", async () => {
    skill(path.join(bundledDir, "j"), `name: j\nmetadata: '{ openclaw: { os: ["darwin"], }, }'`);
    skill(path.join(bundledDir, "l"), "name: l\nmetadata:\n  clawdbot:\n    requires:\n      env: [LEGACY]");
    skill(
      path.join(bundledDir, "f"),
      'name: f\nmetadata:\n  {\n    "openclaw":\n      {\n        "requires": { "bins": ["zz"] },\n      },\n  }',
    );
    const s = await byName();
    expect(s.get("j")?.reasons).toEqual(["os darwin only"]);
    expect(s.get("l")?.reasons).toEqual(["env LEGACY not set"]);
    expect(s.get("f")?.reasons).toEqual(["missing binary: zz"]);
  });
});

describe("config switches", () => {
  it("skills.entries.<key>.enabled: false disables, keyed by skillKey when set", async () => {
    skill(path.join(bundledDir, "a"), "name: a");
    skill(path.join(bundledDir, "b"), "name: b\nmetadata:\n  openclaw:\n    skillKey: bee");
    const config = { skills: { entries: { a: { enabled: false }, b: { enabled: false }, bee: { enabled: true } } } };
    const s = await byName({ config });
    expect(s.get("a")?.reasons).toEqual(["disabled by skills.entries.a.enabled"]);
    expect(s.get("b")).toMatchObject({ key: "bee", eligible: true });
    const off = await byName({ config: { skills: { entries: { bee: { enabled: false } } } } });
    expect(off.get("b")?.reasons).toEqual(["disabled by skills.entries.bee.enabled"]);
  });

  it("skills.allowBundled limits bundled skills only", async () => {
    skill(path.join(bundledDir, "keep"), "name: keep");
    skill(path.join(bundledDir, "drop"), "name: drop");
    skill(path.join(stateDir, "skills", "mine"), "name: mine");
    const s = await byName({ config: { skills: { allowBundled: ["keep"] } } });
    expect(s.get("keep")?.eligible).toBe(true);
    expect(s.get("drop")?.reasons).toEqual(["bundled skill not listed in skills.allowBundled"]);
    expect(s.get("mine")?.eligible).toBe(true);
  });

  it("per-agent allowlists: unset allows all, [] allows none, a list replaces the defaults", async () => {
    for (const n of ["github", "weather", "docs"]) skill(path.join(bundledDir, n), `name: ${n}`);
    const eligibleFor = async (config: object, agentId?: string) =>
      (await eligibleSkills(opts({ config, ...(agentId ? { agentId } : {}) }))).map((s) => s.name).sort();
    expect(await eligibleFor({})).toEqual(["docs", "github", "weather"]);
    const config = {
      agents: {
        defaults: { skills: ["github", "weather"] },
        entries: { writer: { default: true }, docs: { skills: ["docs"] }, locked: { skills: [] } },
      },
    };
    expect(await eligibleFor(config)).toEqual(["github", "weather"]);
    expect(await eligibleFor(config, "docs")).toEqual(["docs"]);
    expect(await eligibleFor(config, "locked")).toEqual([]);
    const { skills } = await discoverSkills(opts({ config, agentId: "locked" }));
    expect(skills[0]?.reasons).toEqual(["agent locked has no skills (agents.entries.locked.skills is [])"]);
    const docs = await discoverSkills(opts({ config, agentId: "docs" }));
    expect(docs.skills.find((s) => s.name === "github")?.reasons).toEqual(["not in agents.entries.docs.skills for agent docs"]);
    expect(await eligibleFor({ agents: { defaults: { skills: [] } } })).toEqual([]);
  });
});

describe("malformed SKILL.md", () => {
  it("is reported ineligible with the reason and file, and shadows nothing", async () => {
    const bad = skill(path.join(workspaceDir, "skills", "dup"), "name: dup\ndescription: [unclosed\n  nope: 1");
    skill(path.join(bundledDir, "dup"), "name: dup\ndescription: good");
    const { skills } = await discoverSkills(opts());
    const [broken, good] = skills;
    expect(broken).toMatchObject({ source: "workspace", eligible: false, name: "dup" });
    expect(broken?.reasons[0]).toMatch(/^invalid YAML front matter at line \d+, column \d+: .+/);
    expect(broken?.reasons[0]).toContain(path.join(bad, "SKILL.md"));
    expect(good).toMatchObject({ source: "bundled", eligible: true, description: "good" });
  });

  it("reports bad metadata, a missing block and wrong types without throwing", async () => {
    skill(path.join(bundledDir, "m1"), `name: m1\nmetadata: "{ openclaw: "`);
    skill(path.join(bundledDir, "m2"), null, "# no front matter\n");
    skill(path.join(bundledDir, "m3"), "name: m3\nmetadata:\n  openclaw:\n    requires:\n      bins: 3");
    skill(path.join(bundledDir, "m4"), "- just\n- a list");
    skill(path.join(bundledDir, "m5"), "name: {a: 1}");
    const reasons = (await discoverSkills(opts())).skills.map((s) => s.reasons[0] ?? "");
    expect(reasons[0]).toMatch(/^metadata is not valid JSON5/);
    expect(reasons[1]).toMatch(/^no front matter/);
    expect(reasons[2]).toMatch(/^metadata\.openclaw\.requires\.bins: /);
    expect(reasons[3]).toMatch(/^front matter must be a mapping/);
    expect(reasons[4]).toMatch(/^name must be a string/);
  });

  it("accepts an unquoted colon in a one-line description (line-by-line fallback)", async () => {
    skill(path.join(bundledDir, "c"), "name: c\ndescription: Use this: when asked");
    expect((await byName()).get("c")).toMatchObject({ eligible: true, description: "Use this: when asked" });
  });

  it("skips files over maxSkillFileBytes with a reason", async () => {
    skill(path.join(bundledDir, "big"), "name: big", "x".repeat(2000));
    const s = await discoverSkills(opts({ config: { skills: { limits: { maxSkillFileBytes: 1000 } } } }));
    expect(s.skills[0]?.reasons[0]).toMatch(/over skills\.limits\.maxSkillFileBytes \(1000\)/);
  });
});

describe("limits and workspace", () => {
  it("loads at most maxSkillsLoadedPerSource skills per root, with a warning", async () => {
    for (const n of ["a", "b", "c"]) skill(path.join(bundledDir, n), `name: ${n}`);
    const r = await discoverSkills(opts({ config: { skills: { limits: { maxSkillsLoadedPerSource: 2 } } } }));
    expect(r.skills.map((s) => s.name)).toEqual(["a", "b"]);
    expect(r.warnings[0]).toMatch(/maxSkillsLoadedPerSource/);
  });

  it("stops a root after maxCandidatesPerRoot folders, with a warning", async () => {
    for (const n of ["a", "b", "c"]) mkdirSync(path.join(bundledDir, "empty", n), { recursive: true });
    skill(path.join(bundledDir, "z"), "name: z");
    const r = await discoverSkills(opts({ config: { skills: { limits: { maxCandidatesPerRoot: 3 } } } }));
    expect(r.skills).toEqual([]);
    expect(r.warnings[0]).toMatch(/after 3 folders \(skills\.limits\.maxCandidatesPerRoot\)/);
  });

  it("skips a workspace symlink leading outside the root unless its target is trusted", async () => {
    const outside = skill(path.join(tmp, "outside", "linked"), "name: linked");
    mkdirSync(path.join(workspaceDir, "skills"), { recursive: true });
    symlinkSync(outside, path.join(workspaceDir, "skills", "linked"));
    const r = await discoverSkills(opts());
    expect(r.skills).toEqual([]);
    expect(r.warnings[0]).toMatch(/skills\.load\.allowSymlinkTargets/);
    const trusted = await discoverSkills(opts({ config: { skills: { load: { allowSymlinkTargets: [path.dirname(outside)] } } } }));
    expect(trusted.skills.map((s) => [s.name, s.source, s.dir])).toEqual([
      ["linked", "workspace", path.join(workspaceDir, "skills", "linked")],
    ]);
    mkdirSync(path.join(stateDir, "skills"));
    symlinkSync(outside, path.join(stateDir, "skills", "linked"));
    const managed = await discoverSkills(opts());
    expect(managed.skills.map((s) => s.source)).toEqual(["managed"]);
  });

  it("resolves the agent workspace when none is given", async () => {
    const base = { ...opts(), workspaceDir: undefined };
    expect((await discoverSkills({ ...base })).workspaceDir).toBe(path.join(stateDir, "workspace"));
    expect((await discoverSkills({ ...base, env: { OPENCLAW_WORKSPACE_DIR: "~/w" } })).workspaceDir).toBe(path.join(home, "w"));
    const config = { agents: { defaults: { workspace: "~/shared" }, entries: { main: {}, ops: { workspace: "~/ops" } } } };
    expect((await discoverSkills({ ...base, config, agentId: "ops" })).workspaceDir).toBe(path.join(home, "ops"));
    expect((await discoverSkills({ ...base, config, agentId: "main" })).workspaceDir).toBe(path.join(home, "shared"));
    const multi = { agents: { entries: { main: {}, ops: {} } } };
    expect((await discoverSkills({ ...base, config: multi, agentId: "ops" })).workspaceDir).toBe(path.join(stateDir, "workspace-ops"));
    expect((await discoverSkills({ ...base, config: multi })).workspaceDir).toBe(path.join(stateDir, "workspace"));
  });
});
