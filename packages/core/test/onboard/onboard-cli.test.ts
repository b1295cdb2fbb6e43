// `openclaw onboard --non-interactive`: every answer from flags and the environment, the key and
// the bot token checked against the fakes, secrets kept as ${VAR} references or 0600 files and
// never printed; a refused key or a wrong base URL writes nothing.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { startFakeAnthropic } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "../helpers/cli.js";
import { cleanEnv, configExists, fakeSets, LLM_KEY, mode, readConfig, startFakes, type Fakes } from "./helpers.js";

let home: string;
let cleanup: () => void;
let fakes: Fakes;

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome("openclaw-onboard-"));
  fakes = await startFakes();
});
afterEach(async () => {
  await fakes.close();
  cleanup();
});

function onboard(args: string[], env: Record<string, string>) {
  return runCli(["onboard", "--non-interactive", ...args], { home, env: cleanEnv(home, env) });
}

const providerArgs = () => [
  "--provider",
  "custom",
  "--provider-id",
  "fake",
  "--base-url",
  fakes.llm.baseUrl,
  "--api-key-env",
  "FAKE_LLM_KEY",
];

describe("openclaw onboard --non-interactive", () => {
  it("writes the provider, the model the provider lists first, the channel and its DM policy; secrets as a reference and a 0600 file", async () => {
    const r = await onboard(
      [...providerArgs(), "--channel", "telegram", "--dm-policy", "allowlist", "--allow-from", "4242", ...fakeSets(fakes.tg)],
      { FAKE_LLM_KEY: LLM_KEY, TELEGRAM_BOT_TOKEN: fakes.tg.token },
    );
    expect(r.code, r.stderr).toBe(0);
    const config = readConfig(home);
    expect(config.models.providers.fake).toEqual({ baseUrl: fakes.llm.baseUrl, apiKey: "${FAKE_LLM_KEY}" });
    expect(config.agents.defaults.model).toBe("fake/fake-mini");
    const telegram = config.channels.telegram;
    expect(telegram).toMatchObject({ dmPolicy: "allowlist", allowFrom: ["4242"], apiRoot: fakes.tg.apiRoot });
    expect(telegram.botToken).toBeUndefined();
    expect(readFileSync(telegram.tokenFile, "utf8").trim()).toBe(fakes.tg.token);
    expect(mode(telegram.tokenFile)).toBe(0o600);
    expect(mode(path.join(home, ".openclaw", "openclaw.json"))).toBe(0o600);
    // Piped output: plain progress lines, the bot's identity, and no secret.
    expect(r.stdout).toContain(`Checking ${fakes.llm.baseUrl}…`);
    expect(r.stdout).toContain(`${fakes.llm.baseUrl} answered (2 models)`);
    expect(r.stdout).toContain(`answered as @${fakes.tg.botUser.username}`);
    expect(r.stdout + r.stderr).not.toContain(LLM_KEY);
    expect(r.stdout + r.stderr).not.toContain(fakes.tg.token);
    expect(r.stdout).not.toContain("\x1b[");
    expect(existsSync(path.join(home, ".openclaw", "workspace", "AGENTS.md"))).toBe(true);
    expect(r.stdout).toContain("openclaw gateway install");
  }, 60_000);

  it("Anthropic: the key from ANTHROPIC_API_KEY is checked on /v1/models and saved as a reference", async () => {
    const anthropic = await startFakeAnthropic({ models: ["claude-test"], expectedApiKey: "sk-ant-onboard" });
    try {
      const args = ["--provider", "anthropic", "--base-url", anthropic.baseUrl];
      const refused = await onboard(args, { ANTHROPIC_API_KEY: "sk-ant-wrong" });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`${anthropic.baseUrl}/v1/models refused the API key (HTTP 401)`);
      const r = await onboard(args, { ANTHROPIC_API_KEY: "sk-ant-onboard" });
      expect(r.code, r.stderr).toBe(0);
      expect(readConfig(home).models.providers.anthropic).toEqual({
        baseUrl: anthropic.baseUrl,
        api: "anthropic-messages",
        apiKey: "${ANTHROPIC_API_KEY}",
      });
      expect(readConfig(home).agents.defaults.model).toBe("anthropic/claude-test");
    } finally {
      await anthropic.close();
    }
  }, 60_000);

  it("a refused key (401) says so and writes nothing", async () => {
    const r = await onboard(providerArgs(), { FAKE_LLM_KEY: "sk-wrong-key" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${fakes.llm.baseUrl}/models refused the API key (HTTP 401): check the key`);
    expect(r.stderr).not.toContain("sk-wrong-key");
    expect(configExists(home)).toBe(false);
  }, 30_000);

  it("a wrong base URL (404) says the URL is probably wrong and writes nothing", async () => {
    const args = ["--provider", "custom", "--base-url", `${fakes.llm.origin}/api`, "--api-key-env", "FAKE_LLM_KEY"];
    const r = await onboard(args, { FAKE_LLM_KEY: LLM_KEY });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("does not exist (HTTP 404): the base URL is probably wrong");
    expect(configExists(home)).toBe(false);
  }, 30_000);

  it("a bot token the Bot API refuses is reported with the key to fix, and nothing is written", async () => {
    const r = await onboard([...providerArgs(), "--channel", "telegram", ...fakeSets(fakes.tg)], {
      FAKE_LLM_KEY: LLM_KEY,
      TELEGRAM_BOT_TOKEN: "999:not-the-token",
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Telegram rejected the bot token (401 Unauthorized)");
    expect(configExists(home)).toBe(false);
    expect(existsSync(path.join(home, ".openclaw", "secrets"))).toBe(false);
  }, 30_000);

  it("without a terminal and without --non-interactive, it says how to run it", async () => {
    const r = await runCli(["onboard"], { home, env: cleanEnv(home) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("pass --non-interactive");
    expect(configExists(home)).toBe(false);
  });
});
