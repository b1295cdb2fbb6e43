#!/usr/bin/env node
// Whole-process timing of `openclaw config validate` and `openclaw doctor --fix` (the BUILT CLI,
// packages/core/dist/cli/main.js) on a realistic config: five channels with two accounts each.
// Each command runs interleaved with a bare `node -e 0` baseline, so the ratio shows what the CLI
// adds on top of starting Node. Doctor gets a legacy-keyed copy of the config before every run,
// so each run really migrates (and writes the file and its .bak).
//
//   node bench/config-cli.mjs [--runs 15] [--json]
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(repoRoot, "packages/core/dist/cli/main.js");
const TARGETS = { validate: 300, doctor: 1000 }; // milliseconds, median wall time

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}
const RUNS = option("--runs", 15);
const WARMUP = 2;
const asJson = process.argv.includes("--json");

// ---------------------------------------------------------------------------------------------
// Fixture: the same settings written the current (nested) way and the legacy (flat) way.

const SECRETS = {
  TELEGRAM_BOT_TOKEN: "123456:bench-main",
  TELEGRAM_NEWS_BOT_TOKEN: "123456:bench-news",
  TELEGRAM_OPS_BOT_TOKEN: "123456:bench-ops",
  MATRIX_ACCESS_TOKEN: "syt_bench_main",
  MATRIX_WORK_TOKEN: "syt_bench_work",
  MATRIX_LAB_TOKEN: "syt_bench_lab",
  FEISHU_APP_SECRET: "bench-feishu-secret",
  QQBOT_CLIENT_SECRET: "bench-qq-secret",
};

const groups = (prefix) => ({
  "*": { requireMention: true },
  [`${prefix}-1001`]: { requireMention: false, systemPrompt: "Answer briefly." },
  [`${prefix}-1002`]: { allowFrom: ["111", "222"], systemPrompt: "Keep answers short in this group." },
});

/** Per channel: shared keys, then streaming for root and the two accounts, current and legacy. */
const CHANNELS = {
  telegram: {
    root: {
      botToken: "${TELEGRAM_BOT_TOKEN}",
      dmPolicy: "pairing",
      groupPolicy: "allowlist",
      groups: groups("-100"),
      replyToMode: "first",
    },
    accounts: {
      news: { botToken: "${TELEGRAM_NEWS_BOT_TOKEN}", name: "News digest" },
      ops: { botToken: "${TELEGRAM_OPS_BOT_TOKEN}", dmPolicy: "allowlist", allowFrom: ["42", "43"] },
    },
    current: {
      root: { mode: "partial", chunkMode: "newline", preview: { chunk: { minChars: 150, maxChars: 700 } } },
      news: { mode: "progress", block: { enabled: true, coalesce: { idleMs: 1500 } } },
      ops: { mode: "off" },
    },
    legacy: {
      root: { streamMode: "partial", chunkMode: "newline", draftChunk: { minChars: 150, maxChars: 700 } },
      news: { streaming: "progress", blockStreaming: true, blockStreamingCoalesce: { idleMs: 1500 } },
      ops: { streaming: false },
    },
  },
  matrix: {
    root: {
      homeserver: "https://matrix.example.org",
      userId: "@assistant:example.org",
      accessToken: "${MATRIX_ACCESS_TOKEN}",
      groups: groups("!room"),
    },
    accounts: {
      work: { userId: "@work:example.org", accessToken: "${MATRIX_WORK_TOKEN}", encryption: true },
      lab: { userId: "@lab:example.org", accessToken: "${MATRIX_LAB_TOKEN}", autoJoin: true },
    },
    current: { root: { mode: "quiet", block: { enabled: true } }, work: { mode: "partial" }, lab: { mode: "off", chunkMode: "newline" } },
    legacy: {
      root: { streaming: "quiet", blockStreaming: true },
      work: { streaming: true },
      lab: { streaming: false, chunkMode: "newline" },
    },
  },
  feishu: {
    root: { appId: "cli_bench_main", appSecret: "${FEISHU_APP_SECRET}", domain: "feishu", connectionMode: "websocket" },
    accounts: {
      intl: { appId: "cli_bench_intl", domain: "lark" },
      hooks: { appId: "cli_bench_hooks", connectionMode: "webhook", webhookPath: "/feishu/events", webhookPort: 8443 },
    },
    current: {
      root: { mode: "partial", block: { coalesce: { minChars: 300 } } },
      intl: { mode: "off" },
      hooks: { chunkMode: "newline", block: { enabled: true } },
    },
    legacy: {
      root: { streaming: true, blockStreamingCoalesce: { minChars: 300 } },
      intl: { streaming: false },
      hooks: { chunkMode: "newline", blockStreaming: true },
    },
  },
  qqbot: {
    root: { appId: "102030405", clientSecret: "${QQBOT_CLIENT_SECRET}", dmPolicy: "pairing" },
    accounts: {
      guild: { appId: "102030406", sandbox: true },
      c2c: { appId: "102030407" },
    },
    current: { root: { mode: "partial", nativeTransport: true }, guild: { mode: "off" }, c2c: { nativeTransport: true } },
    legacy: { root: { streaming: true }, guild: { streaming: false }, c2c: { streaming: { c2cStreamApi: true } } },
  },
  whatsapp: {
    root: { dmPolicy: "allowlist", allowFrom: ["+15550000001", "+15550000002"], sendReadReceipts: true },
    accounts: {
      personal: { selfChatMode: true, allowFrom: ["+15550000003"] },
      family: { groupPolicy: "open" },
    },
    current: { root: { chunkMode: "newline", block: { enabled: true } }, personal: { block: { enabled: false } }, family: {} },
    legacy: {
      root: { chunkMode: "newline", blockStreaming: true },
      personal: { blockStreaming: false },
      family: { streamMode: "partial" },
    },
  },
};

/** Current streaming objects go under `streaming`; legacy keys sit flat next to the others. */
function channelEntry(base, streaming, legacy) {
  if (legacy) return { ...base, ...streaming };
  return Object.keys(streaming).length > 0 ? { ...base, streaming } : { ...base };
}

function buildConfig(legacy) {
  const channels = {};
  for (const [id, spec] of Object.entries(CHANNELS)) {
    const streaming = legacy ? spec.legacy : spec.current;
    const accounts = {};
    for (const [accountId, base] of Object.entries(spec.accounts)) {
      accounts[accountId] = channelEntry(base, streaming[accountId] ?? {}, legacy);
    }
    channels[id] = { ...channelEntry(spec.root, streaming.root, legacy), accounts };
  }
  const agents = [
    { id: "main", default: true, name: "Assistant", identity: { name: "Ada", emoji: "🦉" } },
    {
      id: "work",
      name: "Work",
      workspace: "~/work-agent",
      model: { primary: "anthropic/claude-sonnet-4-5", fallbacks: ["openai/gpt-4o"] },
      skills: ["notes", "calendar"],
    },
    { id: "family", name: "Family", tools: { profile: "messaging", deny: ["exec"] }, humanDelay: { mode: "natural" } },
  ];
  const entries = Object.fromEntries(agents.map(({ id, ...rest }) => [id, rest]));
  return {
    agents: {
      defaults: {
        model: "anthropic/claude-sonnet-4-5",
        models: { "anthropic/claude-sonnet-4-5": { alias: "sonnet" }, "openai/gpt-4o": { alias: "4o", params: { temperature: 0.3 } } },
        blockStreamingDefault: "off",
        blockStreamingChunk: { minChars: 600, maxChars: 1100, breakPreference: "paragraph" },
        blockStreamingCoalesce: { idleMs: 1200 },
        heartbeat: { every: "45m", activeHours: { start: "08:00", end: "22:00" } },
        userTimezone: "Europe/Berlin",
      },
      ...(legacy ? { list: agents } : { entries }),
    },
    bindings: [
      { agentId: "work", match: { channel: "matrix", accountId: "work" } },
      { agentId: "family", match: { channel: "whatsapp", accountId: "family" } },
      { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100-1001" } } },
    ],
    session: legacy
      ? { dmScope: "per-channel-peer", idleMinutes: 240 }
      : { dmScope: "per-channel-peer", reset: { mode: "idle", idleMinutes: 240 } },
    messages: { queue: { mode: "steer", debounceMs: 400 } },
    channels,
  };
}

const fixtureText = (config) => `// openclaw.json written by bench/config-cli.mjs\n${JSON.stringify(config, null, 2)}\n`;

// ---------------------------------------------------------------------------------------------
// Runner

const home = mkdtempSync(path.join(tmpdir(), "openclaw-bench-"));
const stateDir = path.join(home, ".openclaw");
const configPath = path.join(stateDir, "openclaw.json");
mkdirSync(stateDir, { recursive: true, mode: 0o700 });
chmodSync(stateDir, 0o700);

const env = { PATH: process.env.PATH ?? "", HOME: home, ...SECRETS };
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

const commands = {
  baseline: { label: "node -e 0 (baseline)", run: () => timed(["-e", "0"]) },
  validate: {
    label: "openclaw config validate",
    run: () => {
      writeConfig(currentText);
      return timed([CLI, "config", "validate"], /Config OK/);
    },
  },
  doctor: {
    label: "openclaw doctor --fix",
    run: () => {
      writeConfig(legacyText);
      return timed([CLI, "doctor", "--fix"], /changes applied; 0 problems/);
    },
  },
};

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p90: at(0.9), min: sorted[0], max: sorted[sorted.length - 1] };
}

try {
  // Sanity: the legacy fixture migrates into exactly the current config, which validates.
  commands.doctor.run();
  const migrated = JSON.parse(readFileSync(configPath, "utf8"));
  const same = JSON.stringify(sortKeys(migrated)) === JSON.stringify(sortKeys(buildConfig(false)));
  if (!same) throw new Error("doctor --fix did not turn the legacy fixture into the current fixture");

  const samples = { baseline: [], validate: [], doctor: [] };
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const key of Object.keys(commands)) {
      const ms = commands[key].run();
      if (i >= WARMUP) samples[key].push(ms);
    }
  }

  const base = stats(samples.baseline);
  const rows = Object.entries(commands).map(([key, { label }]) => {
    const s = stats(samples[key]);
    const target = TARGETS[key];
    return {
      key,
      label,
      ...s,
      ratio: s.median / base.median,
      ...(target ? { targetMs: target, pass: s.median < target } : {}),
    };
  });
  const legacyKeys = countLegacyKeys(legacyText);

  if (asJson) {
    process.stdout.write(
      `${JSON.stringify({ node: process.version, runs: RUNS, fixtureBytes: { current: currentText.length, legacy: legacyText.length }, legacyKeys, rows }, null, 2)}\n`,
    );
  } else {
    const f = (ms) => `${ms.toFixed(1).padStart(7)} ms`;
    const out = [
      `config CLI bench: node ${process.version}, ${RUNS} runs each (+${WARMUP} warm-up), interleaved, temp HOME`,
      `fixture: 5 channels x 2 accounts, 3 agents, 3 bindings; ${currentText.length} bytes current, ${legacyText.length} bytes legacy (${legacyKeys} retired keys, re-copied before every doctor run)`,
      "",
      `${"command".padEnd(26)}${"median".padStart(10)}${"p90".padStart(10)}${"min".padStart(10)}${"x node".padStart(8)}   target     result`,
    ];
    for (const r of rows) {
      const target = r.targetMs ? `< ${String(r.targetMs).padStart(4)} ms` : "".padEnd(9);
      const verdict = r.targetMs ? (r.pass ? "PASS" : "FAIL") : "";
      out.push(`${r.label.padEnd(26)}${f(r.median)}${f(r.p90)}${f(r.min)}${r.ratio.toFixed(2).padStart(8)}   ${target}  ${verdict}`);
    }
    out.push("", "x node = median / median of the bare `node -e 0` baseline measured in the same run; targets apply to the median.");
    process.stdout.write(`${out.join("\n")}\n`);
  }
  if (rows.some((r) => r.pass === false)) process.exitCode = 1;
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
  const r = spawnSync(process.execPath, [CLI, "config", "validate", "--json"], { env, cwd: home, encoding: "utf8" });
  return JSON.parse(r.stdout).problems.filter((p) => p.kind === "legacy").length;
}
