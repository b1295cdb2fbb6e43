// End to end: `openclaw setup` then `openclaw context`, with the built CLI in a temporary HOME.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

const SIX = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md"];

let home: string;
let cleanup: () => void;
beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
});
afterEach(() => cleanup());

const stateDir = (): string => path.join(home, ".openclaw");
const wsDir = (): string => path.join(stateDir(), "workspace");

interface ContextJson {
  sessionKind: string;
  bootstrapPending: boolean;
  files: { name: string; path: string; status: string; rawChars: number; injectedChars: number }[];
  totals: { injectedChars: number; truncated: number; missing: number; totalMaxChars: number };
  text: string;
}

describe("openclaw setup + context", () => {
  it("seeds the workspace and shows exactly what the model gets, with a truncated file and a missing marker", async () => {
    const setup = await runCli(["setup", "--non-interactive"], { home });
    expect(setup.stderr).toBe("");
    expect(setup.code, setup.stderr).toBe(0);
    const configPath = path.join(stateDir(), "openclaw.json");
    expect(JSON.parse(readFileSync(configPath, "utf8"))).toEqual({});
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    for (const name of [...SIX, "BOOTSTRAP.md"]) expect(existsSync(path.join(wsDir(), name))).toBe(true);
    expect(setup.stdout).toContain("created AGENTS.md, SOUL.md, TOOLS.md, IDENTITY.md, USER.md, HEARTBEAT.md, BOOTSTRAP.md");

    const bigAgents = Array.from({ length: 600 }, (_, i) => `- rule ${i}: keep answers short and kind`).join("\n");
    writeFileSync(path.join(wsDir(), "AGENTS.md"), bigAgents);
    rmSync(path.join(wsDir(), "USER.md"));

    const json = await runCli(["context", "--json"], { home });
    expect(json.code, json.stderr).toBe(0);
    const ctx = JSON.parse(json.stdout) as ContextJson;
    expect(ctx.files.map((f) => [f.name, f.status])).toEqual([
      ["AGENTS.md", "truncated"],
      ["SOUL.md", "ok"],
      ["TOOLS.md", "ok"],
      ["IDENTITY.md", "ok"],
      ["USER.md", "missing"],
      ["BOOTSTRAP.md", "ok"],
    ]);
    const agents = ctx.files[0]!;
    expect(agents.rawChars).toBe(bigAgents.length);
    expect(agents.injectedChars).toBeLessThanOrEqual(12000);
    expect(ctx.totals).toMatchObject({ truncated: 1, missing: 1, totalMaxChars: 60000 });
    expect(ctx.bootstrapPending).toBe(true);
    expect(ctx.text.startsWith("# Project Context\n")).toBe(true);
    expect(ctx.text).toContain(`## ${path.join(wsDir(), "AGENTS.md")}\n\n- rule 0: keep answers short and kind\n`);
    expect(ctx.text).toContain(`Read ${path.join(wsDir(), "AGENTS.md")} with your file tools for the complete text.`);
    expect(ctx.text).toContain("- rule 599: keep answers short and kind\n");
    expect(ctx.text).toContain(
      `## ${path.join(wsDir(), "USER.md")}\n\n[missing file: nothing found at ${path.join(wsDir(), "USER.md")}]\n`,
    );

    // HEARTBEAT.md belongs to heartbeat runs only.
    const beat = JSON.parse((await runCli(["context", "--json", "--heartbeat"], { home })).stdout) as ContextJson;
    expect(beat.files.map((f) => f.name)).toContain("HEARTBEAT.md");

    const human = await runCli(["context"], { home });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/AGENTS\.md\s+truncated\s+\d+\s+\d+/);
    expect(human.stdout).toMatch(/USER\.md\s+missing\s+0\s+\d+/);
    expect(human.stdout).toMatch(/TOTAL\s+\d+\s+\d+ of 60000/);
    const block = human.stdout.split(/^----- .*-----\n/m)[1];
    expect(block).toBe(ctx.text);
  });

  it("never overwrites on a second run, and applies session filters", async () => {
    await runCli(["setup"], { home });
    writeFileSync(path.join(wsDir(), "SOUL.md"), "I am me.\n");
    writeFileSync(path.join(wsDir(), "MEMORY.md"), "private memory\n");
    const again = await runCli(["setup"], { home });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("nothing was overwritten");
    expect(readFileSync(path.join(wsDir(), "SOUL.md"), "utf8")).toBe("I am me.\n");

    const sub = JSON.parse((await runCli(["context", "--json", "--session", "agent:main:subagent:abc"], { home })).stdout) as ContextJson;
    expect(sub.files.map((f) => f.name)).toEqual(["AGENTS.md", "TOOLS.md"]);
    const group = JSON.parse(
      (await runCli(["context", "--json", "--session", "agent:main:telegram:group:42"], { home })).stdout,
    ) as ContextJson;
    expect(group.files.map((f) => f.name)).not.toContain("MEMORY.md");
    const main = JSON.parse((await runCli(["context", "--json"], { home })).stdout) as ContextJson;
    expect(main.files.map((f) => f.name).at(-1)).toBe("MEMORY.md");
    expect(main.text).toContain("private memory");
  });

  it("saves --workspace in a new config, and honours skipBootstrap", async () => {
    const custom = path.join(home, "my-agent");
    const setup = await runCli(["setup", "--workspace", custom], { home });
    expect(setup.code, setup.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(stateDir(), "openclaw.json"), "utf8"))).toEqual({
      agents: { defaults: { workspace: custom } },
    });
    expect(existsSync(path.join(custom, "AGENTS.md"))).toBe(true);
    const ctx = JSON.parse((await runCli(["context", "--json"], { home })).stdout) as ContextJson & { workspaceDir: string };
    expect(ctx.workspaceDir).toBe(custom);

    const other = makeTempHome();
    try {
      mkdirSync(path.join(other.home, ".openclaw"));
      writeFileSync(path.join(other.home, ".openclaw", "openclaw.json"), "{ agents: { defaults: { skipBootstrap: true } } }");
      const skipped = await runCli(["setup"], { home: other.home });
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(skipped.stdout).toContain("skipBootstrap is true");
      expect(existsSync(path.join(other.home, ".openclaw", "workspace"))).toBe(false);
    } finally {
      other.cleanup();
    }
  });

  it("refuses to reseed a workspace that vanished, until --reset-workspace-state", async () => {
    await runCli(["setup"], { home });
    rmSync(wsDir(), { recursive: true });
    const refused = await runCli(["setup"], { home });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(wsDir());
    expect(refused.stderr).toContain("openclaw setup --reset-workspace-state");
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(wsDir())).toBe(false);

    const reset = await runCli(["setup", "--reset-workspace-state"], { home });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain("Forgot the recorded setup state");
    expect(existsSync(path.join(wsDir(), "BOOTSTRAP.md"))).toBe(true);
  });

  it("documents its options in --help", async () => {
    const help = await runCli(["setup", "--help"], { home });
    expect(help.code, help.stderr).toBe(0);
    for (const opt of ["--workspace", "--non-interactive", "--reset-workspace-state", "--agent"]) expect(help.stdout).toContain(opt);
  });
});
