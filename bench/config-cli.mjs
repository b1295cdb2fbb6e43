#!/usr/bin/env node
// Whole-process timing of `openclaw config validate`, `openclaw doctor` (nothing to fix) and
// `openclaw doctor --fix` on a realistic config: five channels with two accounts each. Each command
// runs interleaved with a bare `node -e 0` baseline, so the ratio shows what the CLI adds on top of
// starting Node. Two entries of the same build: "after" is the `openclaw` bin (the esbuild bundle,
// dist/bundle/openclaw.js), "before" is tsc's unbundled dist/cli/main.js. Targets (issue 19) are
// ratios to the baseline and apply to the bin: validate and doctor < 2x, doctor --fix < 2.5x.
// Doctor --fix gets a legacy-keyed copy of the config before every run, so each run really
// migrates (and writes the file and its .bak).
//
// Environment (the agreed baseline environment of the process benches, bench/README.md): the
// baseline and every command get this process's environment (minus OPENCLAW_* variables) with
// HOME at a temporary folder and the fixture's secrets, so both pay what the machine's
// environment costs Node at start-up (e.g. NODE_EXTRA_CA_CERTS, ~70 ms here); targets apply to
// that ratio. `--clean-env` runs both with only PATH, HOME and the secrets instead and prints that
// ratio (informational: it never fails).
//
//   node bench/config-cli.mjs [--runs 15] [--json] [--no-before] [--before-entry <file>] [--clean-env]
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildConfig, fixtureText, SECRETS } from "./lib/config-fixture.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corePackage = JSON.parse(readFileSync(path.join(repoRoot, "packages/core/package.json"), "utf8"));
const BIN = path.join(repoRoot, "packages/core", corePackage.bin.openclaw);
const beforeAt = process.argv.indexOf("--before-entry");
/** "before": tsc's unbundled entry, or another build of the bin given with `--before-entry <file>`. */
const UNBUNDLED = beforeAt >= 0 ? path.resolve(process.argv[beforeAt + 1]) : path.join(repoRoot, "packages/core/dist/cli/main.js");
/** Median wall time of the bin as a multiple of the `node -e 0` median. */
const TARGETS = { validate: 2, doctor: 2, fix: 2.5 };

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const RUNS = option("--runs", 9);
const WARMUP = 2;
const asJson = process.argv.includes("--json");

// ---------------------------------------------------------------------------------------------
// Runner

const home = mkdtempSync(path.join(tmpdir(), "openclaw-bench-"));
const stateDir = path.join(home, ".openclaw");
const configPath = path.join(stateDir, "openclaw.json");
mkdirSync(stateDir, { recursive: true, mode: 0o700 });
chmodSync(stateDir, 0o700);

const cleanEnv = process.argv.includes("--clean-env");
/** The inherited environment without OPENCLAW_* (or a minimal one), HOME at the temp folder, the fixture's secrets. */
const inherited = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith("OPENCLAW_")));
const env = { ...(cleanEnv ? { PATH: process.env.PATH ?? "" } : inherited), HOME: home, ...SECRETS };
const currentText = fixtureText(buildConfig(false));
const legacyText = fixtureText(buildConfig(true));

function writeConfig(text) {
  writeFileSync(configPath, text, { mode: 0o600 });
  chmodSync(configPath, 0o600);
}

/** Runs one process to completion; returns wall milliseconds (spawn to exit). */
function timed(args, expect) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, cwd: home, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 || (expect && !expect.test(result.stdout))) {
    throw new Error(`\`node ${args.join(" ")}\` failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return ms;
}

/** The three commands, each run through `entry`; `key` names the target. */
function cliCommands(entry, suffix) {
  return {
    [`validate${suffix}`]: {
      label: `config validate${suffix ? " (before)" : ""}`,
      target: suffix ? undefined : TARGETS.validate,
      run: () => {
        writeConfig(currentText);
        return timed([entry, "config", "validate"], /Config OK/);
      },
    },
    [`doctor${suffix}`]: {
      label: `doctor${suffix ? " (before)" : ""}`,
      target: suffix ? undefined : TARGETS.doctor,
      run: () => {
        writeConfig(currentText);
        return timed([entry, "doctor"], /No problems found/);
      },
    },
    [`fix${suffix}`]: {
      label: `doctor --fix${suffix ? " (before)" : ""}`,
      target: suffix ? undefined : TARGETS.fix,
      run: () => {
        writeConfig(legacyText);
        return timed([entry, "doctor", "--fix"], /changes applied; 0 problems/);
      },
    },
  };
}

const commands = {
  baseline: { label: "node -e 0 (baseline)", run: () => timed(["-e", "0"]) },
  ...cliCommands(BIN, ""),
  ...(process.argv.includes("--no-before") ? {} : cliCommands(UNBUNDLED, "Before")),
};

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p90: at(0.9), min: sorted[0], max: sorted[sorted.length - 1] };
}

try {
  // Sanity: the legacy fixture migrates into exactly the current config, which validates.
  commands.fix.run();
  const migrated = JSON.parse(readFileSync(configPath, "utf8"));
  const same = JSON.stringify(sortKeys(migrated)) === JSON.stringify(sortKeys(buildConfig(false)));
  if (!same) throw new Error("doctor --fix did not turn the legacy fixture into the current fixture");

  const samples = Object.fromEntries(Object.keys(commands).map((key) => [key, []]));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const key of Object.keys(commands)) {
      const ms = commands[key].run();
      if (i >= WARMUP) samples[key].push(ms);
    }
  }

  const base = stats(samples.baseline);
  const rows = Object.entries(commands).map(([key, { label, target }]) => {
    const s = stats(samples[key]);
    const ratio = s.median / base.median;
    return { key, label, ...s, ratio, ...(target ? { targetRatio: target, pass: ratio < target } : {}) };
  });
  const legacyKeys = countLegacyKeys(legacyText);

  if (asJson) {
    process.stdout.write(
      `${JSON.stringify({ node: process.version, runs: RUNS, environment: cleanEnv ? "clean" : "inherited", fixtureBytes: { current: currentText.length, legacy: legacyText.length }, legacyKeys, rows }, null, 2)}\n`,
    );
  } else {
    const f = (ms) => `${ms.toFixed(1).padStart(7)} ms`;
    const out = [
      `config CLI bench: node ${process.version}, ${RUNS} runs each (+${WARMUP} warm-up), interleaved, temp HOME`,
      cleanEnv
        ? "environment: clean (PATH, HOME and the fixture's secrets only; informational, targets are for the inherited environment)"
        : `environment: inherited (minus OPENCLAW_*), HOME and secrets set${"NODE_EXTRA_CA_CERTS" in inherited ? "; includes NODE_EXTRA_CA_CERTS" : ""}`,
      `after = the openclaw bin (${path.relative(repoRoot, BIN)}); before = ${beforeAt >= 0 ? "" : "tsc's "}${path.relative(repoRoot, UNBUNDLED)}`,
      `fixture: 5 channels x 2 accounts, 3 agents, 3 bindings; ${currentText.length} bytes current, ${legacyText.length} bytes legacy (${legacyKeys} retired keys, re-copied before every doctor run)`,
      "",
      `${"command".padEnd(26)}${"median".padStart(10)}${"p90".padStart(10)}${"min".padStart(10)}${"x node".padStart(8)}   target     result`,
    ];
    for (const r of rows) {
      const target = r.targetRatio ? `< ${r.targetRatio.toFixed(1)}x`.padEnd(9) : "".padEnd(9);
      const verdict = r.targetRatio ? (cleanEnv ? `(${r.pass ? "met" : "missed"}; info)` : r.pass ? "PASS" : "FAIL") : "";
      out.push(`${r.label.padEnd(26)}${f(r.median)}${f(r.p90)}${f(r.min)}${r.ratio.toFixed(2).padStart(8)}   ${target}  ${verdict}`);
    }
    out.push("", "x node = median / median of the bare `node -e 0` baseline measured in the same run; targets apply to that ratio.");
    process.stdout.write(`${out.join("\n")}\n`);
  }
  if (!cleanEnv && rows.some((r) => r.pass === false)) process.exitCode = 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  }
  return value;
}

/** Retired keys in the legacy fixture, as `openclaw config validate` reports them. */
function countLegacyKeys(text) {
  writeConfig(text);
  const r = spawnSync(process.execPath, [BIN, "config", "validate", "--json"], { env, cwd: home, encoding: "utf8" });
  return JSON.parse(r.stdout).problems.filter((p) => p.kind === "legacy").length;
}
