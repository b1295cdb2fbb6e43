import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import JSON5 from "json5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "../helpers/cli.js";

const LEGACY = `{
  // written for an older release
  agents: { list: [{ id: "main", default: true }] },
  channels: {
    matrix: {
      homeserver: "https://matrix.example.org",
      accessToken: "\${MATRIX_TOKEN}",
      streamMode: "quiet",
      blockStreaming: true,
      accounts: { work: { chunkMode: "newline" } },
    },
    qqbot: { streaming: true },
  },
}
`;

let home: string;
let cleanup: () => void;
let configPath: string;
const env = { MATRIX_TOKEN: "syt_secret" };

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  configPath = path.join(home, ".openclaw", "openclaw.json");
  mkdirSync(path.dirname(configPath), { recursive: true, mode: 0o700 });
  writeFileSync(configPath, LEGACY, { mode: 0o600 });
});
afterEach(() => cleanup());

describe("openclaw config validate + doctor --fix", () => {
  it("a retired key fails validation, doctor --fix migrates it, then validation passes", async () => {
    const bad = await runCli(["config", "validate"], { home, env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(configPath);
    expect(bad.stderr).toContain("channels.matrix.blockStreaming");
    expect(bad.stderr).toContain("openclaw doctor --fix");
    expect(bad.stderr).toContain("channels.matrix.streaming.block.enabled");

    const report = await runCli(["doctor", "--non-interactive"], { home, env });
    expect(report.code).toBe(1);
    expect(report.stdout).toContain("Would change");
    expect(readFileSync(configPath, "utf8")).toBe(LEGACY); // report-only never writes

    const fix = await runCli(["doctor", "--fix", "--non-interactive"], { home, env });
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain("channels.matrix.blockStreaming -> channels.matrix.streaming.block.enabled");
    expect(fix.stdout).toContain('channels.matrix.streamMode -> channels.matrix.streaming.mode: "quiet"');
    expect(fix.stdout).toContain("channels.matrix.accounts.work.chunkMode -> channels.matrix.accounts.work.streaming.chunkMode");
    expect(fix.stdout).toContain("agents.list[0] -> agents.entries.main");
    expect(readFileSync(`${configPath}.bak`, "utf8")).toBe(LEGACY);

    const written = JSON5.parse(readFileSync(configPath, "utf8"));
    expect(written).toEqual({
      agents: { entries: { main: { default: true } } },
      channels: {
        matrix: {
          homeserver: "https://matrix.example.org",
          accessToken: "${MATRIX_TOKEN}", // placeholders survive the rewrite
          streaming: { mode: "quiet", block: { enabled: true } },
          accounts: { work: { streaming: { chunkMode: "newline" } } },
        },
        qqbot: { streaming: { mode: "partial", nativeTransport: true } },
      },
    });
    expect(statSync(configPath).mode & 0o777).toBe(0o600);

    const ok = await runCli(["config", "validate"], { home, env });
    // Only the "configured but no plugin installed" warnings (matrix, qqbot) remain.
    expect(
      ok.stderr
        .split("\n")
        .filter((line) => line && !/^Warning: channels\.\w+ is configured but no installed plugin provides it/.test(line)),
    ).toEqual([]);
    expect(ok.code).toBe(0);

    const again = await runCli(["doctor", "--fix"], { home, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("nothing to change");
    expect(readdirSync(path.dirname(configPath)).sort()).toEqual(["openclaw.json", "openclaw.json.bak"]);
  });

  it("doctor on a machine with no config reports the safe defaults and exits 0", async () => {
    const fresh = makeTempHome();
    try {
      const res = await runCli(["doctor"], { home: fresh.home });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain("safe defaults");
      expect(res.stdout).toContain("No problems found.");
    } finally {
      fresh.cleanup();
    }
  });

  it("an invalid legacy value is reported by doctor, not guessed", async () => {
    writeFileSync(configPath, `{ channels: { telegram: { streamMode: "sometimes" } } }`);
    const res = await runCli(["doctor", "--fix"], { home, env });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('channels.telegram.streamMode has the invalid value "sometimes"');
    expect(JSON5.parse(readFileSync(configPath, "utf8"))).toEqual({ channels: { telegram: { streamMode: "sometimes" } } });
  });

  it("--json emits the report as JSON", async () => {
    const res = await runCli(["doctor", "--json"], { home, env });
    const report = JSON.parse(res.stdout);
    expect(report.fix).toBe(false);
    expect(report.changeCount).toBeGreaterThan(3);
  });

  it("honours --profile and OPENCLAW_CONFIG_PATH", async () => {
    const profDir = path.join(home, ".openclaw-work");
    mkdirSync(profDir, { recursive: true });
    writeFileSync(path.join(profDir, "openclaw.json"), `{ channels: { feishu: { streaming: false } } }`);
    const prof = await runCli(["--profile", "work", "doctor", "--fix"], { home });
    expect(prof.stdout).toContain('channels.feishu.streaming: false -> channels.feishu.streaming.mode: "off"');
    const custom = path.join(home, "custom.json5");
    writeFileSync(custom, `{ channels: { whatsapp: { blockStreaming: true } } }`);
    const viaEnv = await runCli(["doctor", "--fix"], { home, env: { OPENCLAW_CONFIG_PATH: custom } });
    expect(viaEnv.stdout).toContain("channels.whatsapp.blockStreaming -> channels.whatsapp.streaming.block.enabled");
    expect(JSON5.parse(readFileSync(custom, "utf8"))).toEqual({ channels: { whatsapp: { streaming: { block: { enabled: true } } } } });
  });
});
