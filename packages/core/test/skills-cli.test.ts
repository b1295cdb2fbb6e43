import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-skills-cli-"));
});
afterEach(() => cleanup());

function write(rel: string, text: string): string {
  const file = path.join(home, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const WS = ".openclaw/workspace/skills";

function seed(config: object = {}): void {
  write(".openclaw/openclaw.json", JSON.stringify(config));
  write(
    `${WS}/video/SKILL.md`,
    "---\nname: video\ndescription: Cut clips\nmetadata:\n  openclaw:\n    requires:\n      bins: [definitely-not-installed-xyz]\n---\nbody\n",
  );
  write(`${WS}/notes/workspace-memory/SKILL.md`, "---\nname: workspace-memory\ndescription: my own memory rules\n---\nbody\n");
  write(".agents/skills/off/SKILL.md", "---\nname: off\ndescription: turned off\n---\n");
  write(
    ".openclaw/skills/keyed/SKILL.md",
    '---\nname: keyed\ndescription: needs a key\nmetadata: \'{"openclaw":{"primaryEnv":"KEYED_API_KEY","requires":{"env":["KEYED_API_KEY"]}}}\'\n---\n',
  );
}

describe("openclaw skills", () => {
  it("list --json prints every skill with source and eligibility", async () => {
    seed({ skills: { entries: { off: { enabled: false } } } });
    const r = await runCli(["skills", "list", "--json"], { home });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { agentId: string; workspaceDir: string; skills: Array<Record<string, unknown>> };
    expect(out.agentId).toBe("main");
    expect(out.workspaceDir).toBe(path.join(home, ".openclaw", "workspace"));
    const summary = out.skills.map((s) => [s.name, s.source, s.eligible]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ["video", "workspace", false],
        ["workspace-memory", "workspace", true],
        ["off", "personal", false],
        ["keyed", "managed", false],
        ["workspace-memory", "bundled", false],
        ["skill-authoring", "bundled", true],
      ]),
    );
    const eligible = await runCli(["skills", "list", "--json", "--eligible"], { home });
    const names = (JSON.parse(eligible.stdout) as { skills: Array<{ name: string; source: string }> }).skills.map(
      (s) => `${s.name}@${s.source}`,
    );
    expect(names.sort()).toEqual(["skill-authoring@bundled", "workspace-memory@workspace"]);
  });

  it("list prints a table", async () => {
    seed();
    const r = await runCli(["skills", "list"], { home });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+SOURCE\s+ELIGIBLE\s+DESCRIPTION\n/);
    expect(r.stdout).toMatch(/\nvideo\s+workspace\s+no\s+Cut clips\n/);
  });

  it("check explains why each skill is or is not eligible", async () => {
    seed({ skills: { entries: { off: { enabled: false } } } });
    write(`${WS}/broken/SKILL.md`, "---\nname: broken\ndescription: [oops\n  x: 1\n---\n");
    const r = await runCli(["skills", "check"], { home });
    expect(r.code).toBe(0);
    const line = (name: string) => r.stdout.split("\n").filter((l) => l.includes(` ${name} (`));
    expect(line("video")[0]).toMatch(
      /^\s+no\s+video \(workspace, ~\/\.openclaw\/workspace\/skills\/video\/SKILL\.md\): missing binary: definitely-not-installed-xyz$/,
    );
    expect(line("off")[0]).toMatch(/: disabled by skills\.entries\.off\.enabled$/);
    expect(line("keyed")[0]).toMatch(/: env KEYED_API_KEY not set$/);
    expect(line("workspace-memory")).toEqual([
      expect.stringMatching(/^\s+ok\s+workspace-memory \(workspace,/),
      expect.stringMatching(/: shadowed by ~\/\.openclaw\/workspace\/skills\/notes\/workspace-memory$/),
    ]);
    expect(line("broken")[0]).toMatch(
      /: invalid YAML front matter at line \d+, column \d+: .+ \(~\/\.openclaw\/workspace\/skills\/broken\/SKILL\.md\)$/,
    );
    expect(r.stdout).toMatch(/\n2 eligible, 5 not eligible\.\n$/);

    const withKey = await runCli(["skills", "check", "--json"], {
      home,
      env: { KEYED_API_KEY: "k" },
    });
    const json = JSON.parse(withKey.stdout) as { eligible: number; skills: Array<{ name: string; eligible: boolean }> };
    expect(json.eligible).toBe(3);
    expect(json.skills.find((s) => s.name === "keyed")?.eligible).toBe(true);
  });

  it("--agent applies that agent's allowlist and rejects unknown agents", async () => {
    seed({ agents: { entries: { main: { default: true }, quiet: { skills: [] } } } });
    const quiet = await runCli(["skills", "check", "--json", "--agent", "quiet"], { home });
    const json = JSON.parse(quiet.stdout) as { agentId: string; workspaceDir: string; eligible: number };
    expect(json).toMatchObject({ agentId: "quiet", eligible: 0 });
    expect(json.workspaceDir).toBe(path.join(home, ".openclaw", "workspace-quiet"));

    const unknown = await runCli(["skills", "list", "--agent", "nobody"], { home });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/No agent "nobody" in .*openclaw\.json; known agents: main, quiet\./);
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });
});
