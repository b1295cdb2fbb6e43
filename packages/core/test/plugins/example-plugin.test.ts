// The plugin guide's example (examples/channel-chatterbox) the way an outside author uses it: the
// SDK and the test kit packed into tarballs, the example's files in a fresh project outside this
// workspace that installs them (and zod, vitest, typescript) with npm, builds, type-checks and
// passes its tests there, the channel conformance suite among them. Then `npm pack` of the example
// installs into a gateway with `openclaw plugins install`, and its doctor rule works.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONFORMANCE_CASES } from "@openclaw/testkit/conformance";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type CliHome, makeCliHome } from "./cli-home.js";
import { HOST_SDK } from "./helpers.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const EXAMPLE = path.join(REPO, "examples", "channel-chatterbox");
const HOST_TESTKIT = path.join(REPO, "packages", "testkit");
const HOST_DELIVERY = path.join(REPO, "packages", "delivery");

/** What the author's copy of the example leaves out: what install, build and pack produce. */
const GENERATED = new Set(["node_modules", "dist", "openclaw.plugin.json", "package-lock.json"]);

interface Run {
  code: number;
  output: string;
}

/**
 * Runs a command as the author would in a shell: without the npm and pnpm settings, or the
 * vitest variables, of the test run this happens in.
 */
function run(command: string, args: string[], cwd: string): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|pnpm_|VITEST|NODE_OPTIONS$)/i.test(key)) env[key] = value;
  }
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: `$ ${command} ${args.join(" ")}\n${stdout}${stderr}` });
    });
  });
}

const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund"];

let h: CliHome;
beforeEach(() => (h = makeCliHome()));
afterEach(() => h.cleanup());

it("the example plugin passes the conformance suite from packed tarballs, then installs into a gateway", async () => {
  // 1. In the clone: pack the SDK, the delivery engine and the test kit next to where the author's project will be.
  const packs = path.join(h.home, "openclaw-packs");
  mkdirSync(packs);
  for (const dir of [HOST_SDK, HOST_DELIVERY, HOST_TESTKIT]) {
    const packed = await run("pnpm", ["pack", "--pack-destination", packs], dir);
    expect(packed.code, packed.output).toBe(0);
  }
  const pkg = JSON.parse(readFileSync(path.join(EXAMPLE, "package.json"), "utf8"));
  const expected = Object.values(pkg.devDependencies as Record<string, string>)
    .filter((spec) => spec.startsWith("file:../openclaw-packs/"))
    .map((spec) => path.basename(spec));
  expect(readdirSync(packs).sort(), "the example's devDependencies name the tarballs `pnpm pack` makes").toEqual(expected.sort());

  // 2. The author's project: the example's files, outside the workspace; npm installs the tarballs.
  const project = path.join(h.home, "openclaw-chatterbox");
  cpSync(EXAMPLE, project, { recursive: true, filter: (from) => !GENERATED.has(path.basename(from)) && !from.endsWith(".tgz") });
  const install = await run("npm", ["install", ...NPM_FLAGS], project);
  expect(install.code, install.output).toBe(0);
  const lock = JSON.parse(readFileSync(path.join(project, "package-lock.json"), "utf8"));
  for (const name of ["@openclaw/plugin-sdk", "@openclaw/delivery", "@openclaw/testkit"]) {
    expect(lock.packages[`node_modules/${name}`]?.resolved, `${name} comes from its tarball, never the registry`).toMatch(
      /^file:\.\.\/openclaw-packs\//,
    );
  }

  // 3. Build, type-check and test it as the guide says.
  for (const script of ["build", "typecheck"]) {
    const result = await run("npm", ["run", script], project);
    expect(result.code, result.output).toBe(0);
  }
  expect(existsSync(path.join(project, "openclaw.plugin.json"))).toBe(true);
  const results = path.join(project, "vitest-results.json");
  const test = await run("npm", ["test", "--", "--reporter=json", `--outputFile=${results}`], project);
  expect(test.code, test.output).toBe(0);
  const report = JSON.parse(readFileSync(results, "utf8")) as {
    numFailedTests: number;
    numPendingTests: number;
    testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
  };
  expect(report.numFailedTests).toBe(0);
  const passed = report.testResults.flatMap((file) => file.assertionResults.filter((a) => a.status === "passed").map((a) => a.title));
  // Chatterbox declares no native stream and no media: only the cases needing those are skipped.
  const applies = CONFORMANCE_CASES.filter((c) => c.needs !== "nativeStream" && c.needs !== "media");
  expect(report.numPendingTests, "only the cases for powers Chatterbox lacks are skipped").toBe(CONFORMANCE_CASES.length - applies.length);
  for (const c of applies) expect(passed, `conformance case ${c.id} passed`).toContain(`${c.id}: ${c.title}`);

  // 4. Pack the plugin and install the tarball into a gateway, where it uses the gateway's SDK and zod.
  const packed = await run("npm", ["pack", "--silent", ...NPM_FLAGS], project);
  expect(packed.code, packed.output).toBe(0);
  const tarball = path.join(project, "openclaw-chatterbox-1.0.0.tgz");
  const installed = await h.cli("plugins", "install", tarball);
  expect(installed.code, installed.stderr).toBe(0);
  expect(installed.stdout).toContain('Installed plugin "chatterbox" (openclaw-chatterbox@1.0.0)');
  expect((await h.listJson()).plugins.map((p) => [p.id, p.status])).toEqual([["chatterbox", "enabled"]]);

  // 5. Its doctor rule (migration data in the light config entry): the retired `token` moves to `apiToken`.
  writeFileSync(h.configPath, JSON.stringify({ channels: { chatterbox: { token: "t", streaming: { mode: "partial" } } } }));
  const retired = await h.cli("config", "validate");
  expect(retired.code).toBe(1);
  expect(`${retired.stdout}${retired.stderr}`).toContain(
    "channels.chatterbox.token: is retired; run `openclaw doctor --fix` to move it to channels.chatterbox.apiToken",
  );
  const doctor = await h.cli("doctor", "--fix");
  expect(doctor.code, doctor.stderr).toBe(0);
  expect(JSON.parse(readFileSync(h.configPath, "utf8")).channels.chatterbox).toEqual({ apiToken: "t", streaming: { mode: "partial" } });
  const valid = await h.cli("config", "validate");
  expect(valid.code, valid.stderr).toBe(0);
}, 240_000);
