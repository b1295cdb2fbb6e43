import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runUpdateCommand } from "../cli/actions/update.js";
import type { CliContext } from "../cli/context.js";
import type { CommandRunner } from "../service/index.js";
import { detectInstall } from "./index.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-update-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** A CLI context printing into a string; the state dir under the temp home. */
function context(): CliContext & { output: () => string } {
  let out = "";
  const stdout = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream;
  const stateDir = path.join(home, ".openclaw");
  return {
    paths: () => ({ stateDir, configPath: path.join(stateDir, "openclaw.json") }),
    loadConfig: () => Promise.reject(new Error("not used")),
    stdout,
    stderr: stdout,
    output: () => out,
  };
}

/** npm, systemctl and the CLI as fakes: records calls; npm view answers `latest`; `fail` makes one program fail. */
function fakeHost(latest: string, fail?: string): CommandRunner & { calls: string[] } {
  const calls: string[] = [];
  const run: CommandRunner = async (command, args) => {
    calls.push([command, ...args].join(" "));
    if (command === fail) return { code: 1, stdout: "", stderr: `${command}: EACCES: permission denied\nmore` };
    if (command === "npm" && args[0] === "view") return { code: 0, stdout: `${latest}\n`, stderr: "" };
    return { code: 0, stdout: "", stderr: "" };
  };
  return Object.assign(run, { calls });
}

const entry = "/usr/lib/node_modules/@openclaw/core/dist/cli/main.js";
const deps = (runner: CommandRunner) => ({
  runner,
  entry,
  execPath: "/usr/bin/node",
  current: "0.1.0",
  service: { platform: "linux" as const, env: { HOME: home } },
});

it("without --yes prints the npm upgrade, doctor --fix and nothing else; runs only npm view", async () => {
  const ctx = context();
  const host = fakeHost("0.2.0");
  await runUpdateCommand(ctx, {}, deps(host));
  expect(ctx.output()).toContain("openclaw 0.1.0 installed with npm; newest release 0.2.0");
  expect(ctx.output()).toContain(`  npm install --global @openclaw/core@0.2.0\n  /usr/bin/node ${entry} doctor --fix --non-interactive\n`);
  expect(ctx.output()).not.toContain("gateway restart");
  expect(host.calls).toEqual(["npm view @openclaw/core version"]);
});

it("--yes installs, runs doctor's migrations with the same Node and entry, and restarts an installed service", async () => {
  const unitDir = path.join(home, ".config", "systemd", "user");
  mkdirSync(unitDir, { recursive: true });
  writeFileSync(path.join(unitDir, "openclaw-gateway.service"), "[Service]\n");
  const ctx = context();
  const host = fakeHost("0.2.0");
  await runUpdateCommand(ctx, { yes: true }, deps(host));
  expect(host.calls.filter((c) => !c.startsWith("systemctl") && !c.startsWith("loginctl"))).toEqual([
    "npm view @openclaw/core version",
    "npm install --global @openclaw/core@0.2.0",
    `/usr/bin/node ${entry} doctor --fix --non-interactive`,
    `/usr/bin/node ${entry} gateway restart`,
  ]);
  expect(ctx.output()).toContain("Upgraded; doctor's migrations ran.");
});

it("is up to date when the registry has nothing newer, and names the failed step and what is left", async () => {
  const ctx = context();
  await runUpdateCommand(ctx, { yes: true }, deps(fakeHost("0.1.0")));
  expect(ctx.output()).toContain("Already up to date.");
  await expect(runUpdateCommand(context(), { yes: true }, deps(fakeHost("0.3.0", "/usr/bin/node")))).rejects.toThrow(
    /Step 2 of 2 failed: \/usr\/bin\/node: EACCES: permission denied\nFix that, then run the remaining steps:\n {2}\/usr\/bin\/node .* doctor --fix/,
  );
});

it("tells a repository clone from a global install", () => {
  const clone = path.join(home, "repo");
  mkdirSync(path.join(clone, ".git"), { recursive: true });
  mkdirSync(path.join(clone, "packages", "core", "dist", "cli"), { recursive: true });
  writeFileSync(path.join(clone, "pnpm-workspace.yaml"), "");
  expect(detectInstall(path.join(clone, "packages", "core", "dist", "cli", "main.js"))).toEqual({ kind: "git", root: clone });
  expect(detectInstall("/home/u/.local/share/pnpm/global/5/node_modules/@openclaw/core/dist/cli/main.js")).toEqual({ kind: "pnpm" });
  expect(detectInstall(entry)).toEqual({ kind: "npm" });
});
