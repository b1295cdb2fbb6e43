import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import JSON5 from "json5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

/** The Telegram channel package of this repository (built). */
const TELEGRAM_DIR = path.resolve(fileURLToPath(new URL("../../../extensions/telegram", import.meta.url)));
let home: string;
let cleanup: () => void;
let configPath: string;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  configPath = path.join(home, ".openclaw", "openclaw.json");
});
afterEach(() => cleanup());

const write = (text: string) => {
  mkdirSync(path.dirname(configPath), { recursive: true });
  writeFileSync(configPath, text);
};
const read = () => JSON5.parse(readFileSync(configPath, "utf8"));

describe("openclaw config", () => {
  it("validate: a missing file means safe defaults", async () => {
    const res = await runCli(["config", "validate"], { home });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("safe defaults");
  });

  it("validate lists every problem with path, file and fix, and exits non-zero", async () => {
    write(`{ agents: { defaults: { bootstrapMaxChars: "big", workspce: "/w" } }, gateway: { port: 99999 }, channels: { slack: {} } }`);
    const res = await runCli(["config", "validate"], { home });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(configPath);
    expect(res.stderr).toContain("agents.defaults.bootstrapMaxChars: expected number");
    expect(res.stderr).toContain('agents.defaults.workspce: unknown key. Fix: did you mean "workspace"?');
    expect(res.stderr).toContain("gateway.port");
    expect(res.stderr).toContain('channels.slack: no channel named "slack"');
    const json = await runCli(["config", "validate", "--json"], { home });
    const parsed = JSON.parse(json.stdout);
    expect(parsed.valid).toBe(false);
    expect(parsed.problems.map((p: { path: string }) => p.path)).toContain("gateway.port");
  });

  it("validate reports a JSON5 syntax error with line and column", async () => {
    write(`{\n  agents: {,\n}`);
    const res = await runCli(["config", "validate"], { home });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/line 2/i);
  });

  it("only $schema is tolerated at the root", async () => {
    write(`{ $schema: "./schema.json" }`);
    expect((await runCli(["config", "validate"], { home })).code).toBe(0);
    write(`{ $comment: "x" }`);
    expect((await runCli(["config", "validate"], { home })).code).toBe(1);
  });

  it("get shows effective values with defaults; --json emits JSON", async () => {
    const dflt = await runCli(["config", "get", "agents.defaults.bootstrapMaxChars"], { home });
    expect(dflt.stdout.trim()).toBe("12000");
    expect((await runCli(["config", "get", "gateway.port"], { home })).stdout.trim()).toBe("18789");
    const chunk = await runCli(["config", "get", "agents.defaults.blockStreamingChunk", "--json"], { home });
    expect(JSON.parse(chunk.stdout)).toEqual({ minChars: 800, maxChars: 1200, breakPreference: "paragraph" });
    const missing = await runCli(["config", "get", "agents.defaults.model"], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("agents.defaults.model is not set");
  });

  it("get shows secrets as ***: by key, by header name and inside URLs, unless --show-secrets", async () => {
    const provider = {
      baseUrl: "https://proxyuser:proxy-pass-9876@llm.internal.example/v1?api_key=query-key-5555&region=eu",
      apiKey: "sk-provider-key-1111",
      headers: { Authorization: "Bearer header-bearer-4321", Cookie: "session=cookie-value-777", "X-Trace": "plain" },
      models: [{ id: "big" }],
    };
    write(JSON.stringify({ models: { providers: { mirror: provider } } }));
    const secrets = ["proxyuser", "proxy-pass-9876", "query-key-5555", "sk-provider-key-1111", "header-bearer-4321", "cookie-value-777"];
    const whole = await runCli(["config", "get", "models", "--json"], { home });
    expect(whole.code).toBe(0);
    for (const secret of secrets) expect(whole.stdout).not.toContain(secret);
    expect(JSON.parse(whole.stdout).providers.mirror).toMatchObject({
      baseUrl: "https://***@llm.internal.example/v1?api_key=***&region=eu",
      apiKey: "***",
      headers: { Authorization: "***", Cookie: "***", "X-Trace": "plain" },
    });
    const header = await runCli(["config", "get", "models.providers.mirror.headers.Authorization"], { home });
    expect(header.stdout.trim()).toBe("***");
    const shown = await runCli(["config", "get", "models.providers.mirror.headers.Authorization", "--show-secrets"], { home });
    expect(shown.stdout.trim()).toBe("Bearer header-bearer-4321");
  });

  it("set writes JSON5 values atomically with a .bak, and refuses invalid results", async () => {
    // The Telegram plugin of this repository is installed (found through plugins.load.paths).
    write(`{ agents: { defaults: { model: "openai/gpt-4o" } }, plugins: { load: { paths: [${JSON.stringify(TELEGRAM_DIR)}] } } }`);
    const set = await runCli(["config", "set", "channels.telegram.streaming", '{mode: "block", block: {enabled: true}}'], { home });
    expect(set.code).toBe(0);
    expect(read().channels.telegram.streaming).toEqual({ mode: "block", block: { enabled: true } });
    expect(JSON5.parse(readFileSync(`${configPath}.bak`, "utf8"))).toEqual({
      agents: { defaults: { model: "openai/gpt-4o" } },
      plugins: { load: { paths: [TELEGRAM_DIR] } },
    });

    const bare = await runCli(["config", "set", "agents.defaults.model", "anthropic/claude-sonnet-4"], { home });
    expect(bare.code).toBe(0);
    expect(read().agents.defaults.model).toBe("anthropic/claude-sonnet-4");

    const bad = await runCli(["config", "set", "channels.telegram.streaming.mode", "sideways"], { home });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("channels.telegram.streaming.mode");
    expect(bad.stderr).toContain("Not written");
    expect(read().channels.telegram.streaming.mode).toBe("block");

    const retired = await runCli(["config", "set", "channels.matrix.blockStreaming", "true"], { home });
    expect(retired.code).toBe(1);
    expect(retired.stderr).toContain("openclaw doctor --fix");
  });

  it("set with brackets for keys that contain dots", async () => {
    const res = await runCli(["config", "set", 'agents.defaults.models["openai/gpt-4o"].alias', "fast"], { home });
    expect(res.code).toBe(0);
    expect(read().agents.defaults.models["openai/gpt-4o"].alias).toBe("fast");
  });

  it("unset removes the key and prunes empty parents", async () => {
    write(`{ channels: { telegram: { streaming: { mode: "off" } } }, gateway: { port: 19000 } }`);
    const res = await runCli(["config", "unset", "channels.telegram.streaming.mode"], { home });
    expect(res.code).toBe(0);
    expect(read()).toEqual({ gateway: { port: 19000 } });
    const again = await runCli(["config", "unset", "channels.telegram.streaming.mode"], { home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("not set");
  });

  it("schema prints a JSON Schema generated from the zod schema, with the installed channel plugins' keys", async () => {
    const bare = JSON.parse((await runCli(["config", "schema"], { home })).stdout);
    expect(bare.additionalProperties).toBe(false);
    // Not installed: a first-party channel is known by name and says which package checks its keys.
    expect(bare.properties.channels.properties.telegram.description).toContain("@openclaw/telegram");
    expect(bare.properties.channels.properties.matrix.description).toContain("@openclaw/matrix");

    write(`{ plugins: { load: { paths: [${JSON.stringify(TELEGRAM_DIR)}] } } }`);
    const schema = JSON.parse((await runCli(["config", "schema"], { home })).stdout);
    const tg = schema.properties.channels.properties.telegram;
    expect(tg.properties.streaming.properties.mode.enum).toEqual(["off", "partial", "block", "progress"]);
  });

  it("--help works for every command and --version prints the version", async () => {
    for (const args of [["--help"], ["config", "--help"], ["config", "set", "--help"], ["doctor", "--help"]]) {
      const res = await runCli(args, { home });
      expect(res.code, args.join(" ")).toBe(0);
      expect(res.stdout).toContain("Usage:");
    }
    const v = await runCli(["--version"], { home });
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("keys accepted but not acted on yet", () => {
  it("heartbeat and sandbox run, so config validate no longer warns about them", async () => {
    write(`{ agents: { defaults: { heartbeat: { every: "30m" }, sandbox: { mode: "all" } } } }`);
    const res = await runCli(["config", "validate"], { home });
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain("heartbeat");
    expect(res.stderr).not.toContain("sandbox"); // both run now (docs/automation.md, docs/agent.md)
  });
});

const writeTelegram = (telegram: Record<string, unknown>) =>
  write(
    JSON.stringify({ plugins: { load: { paths: [TELEGRAM_DIR] } }, channels: { telegram: { botToken: "123456:ABCDEF", ...telegram } } }),
  );

/** The problem lines `config validate` printed, keyed by config path. */
function problemLines(stderr: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const line of stderr.split("\n")) {
    const m = /^\s+- (\S+): (.*)$/.exec(line);
    if (m) lines.set(m[1]!, m[2]!);
  }
  return lines;
}

describe("sender ids that can never match", () => {
  it("config validate names every bad Telegram allowFrom entry with its path, the file and the fix; good ones pass", async () => {
    writeTelegram({
      dmPolicy: "allowlist",
      allowFrom: ["123456789", "@alice", 12.5, "tg:987654321", "telegram:42", 555, "*", "-1001234567890"],
      groupAllowFrom: ["alice"],
      groups: { "-1001234567890": { allowFrom: ["tg:@bob", "77"], topics: { "3": { allowFrom: ["tg:"] } } } },
      accounts: { work: { botToken: "654321:FEDCBA", allowFrom: ["@carol"], groupAllowFrom: [0] } },
    });
    const res = await runCli(["config", "validate"], { home });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(configPath);
    const problems = problemLines(res.stderr);
    expect([...problems.keys()].sort()).toEqual(
      [
        "channels.telegram.allowFrom[1]",
        "channels.telegram.allowFrom[2]",
        "channels.telegram.allowFrom[7]",
        "channels.telegram.groupAllowFrom[0]",
        'channels.telegram.groups["-1001234567890"].allowFrom[0]',
        'channels.telegram.groups["-1001234567890"].topics["3"].allowFrom[0]',
        "channels.telegram.accounts.work.allowFrom[0]",
        "channels.telegram.accounts.work.groupAllowFrom[0]",
      ].sort(),
    );
    expect(problems.get("channels.telegram.allowFrom[1]")).toBe(
      '"@alice" is a username; Telegram allows senders by numeric user id. Fix: ask the user to message the bot and run `openclaw pairing list` (it shows their numeric id), or find the id with @userinfobot, and write that number.',
    );
    expect(problems.get("channels.telegram.allowFrom[2]")).toBe(
      "12.5 can never match a sender: an id written as a number must be a whole number. Fix: write the sender's exact id (a whole number, or a string).",
    );
    expect(problems.get("channels.telegram.allowFrom[7]")).toContain(
      '"-1001234567890" is a group chat id, not a user id. Fix: list the group under groups',
    );
    expect(problems.get("channels.telegram.groupAllowFrom[0]")).toContain('"alice" is not a Telegram user id');
    expect(problems.get('channels.telegram.groups["-1001234567890"].allowFrom[0]')).toContain('"@bob" is a username');
    expect(problems.get('channels.telegram.groups["-1001234567890"].topics["3"].allowFrom[0]')).toContain('"tg:" names no sender');
    expect(problems.get("channels.telegram.accounts.work.allowFrom[0]")).toContain('"@carol" is a username');
    expect(problems.get("channels.telegram.accounts.work.groupAllowFrom[0]")).toContain('"0" is not a Telegram user id');

    const json = JSON.parse((await runCli(["config", "validate", "--json"], { home })).stdout);
    expect(json.valid).toBe(false);
    expect(json.problems).toContainEqual(
      expect.objectContaining({ path: "channels.telegram.allowFrom[1]", fix: expect.stringContaining("pairing list") }),
    );

    writeTelegram({ dmPolicy: "allowlist", allowFrom: ["123456789", "tg:987654321", 555, "*"], groupAllowFrom: ["telegram:42"] });
    const fixed = await runCli(["config", "validate"], { home });
    expect(fixed.code, fixed.stderr).toBe(0);
  });

  it("the gateway refuses to start and doctor reports the entry; config set refuses to write one", async () => {
    writeTelegram({ allowFrom: ["@alice"] });
    const gateway = await runCli(["gateway", "--port", "0"], { home });
    expect(gateway.code).toBe(1);
    expect(gateway.stderr).toContain(`Invalid config in ${configPath}`);
    expect(gateway.stderr).toContain('channels.telegram.allowFrom[0]: "@alice" is a username');
    expect(gateway.stderr).not.toContain("listening");

    const doctor = await runCli(["doctor"], { home });
    expect(doctor.code).not.toBe(0);
    expect(doctor.stdout + doctor.stderr).toContain('channels.telegram.allowFrom[0]: "@alice" is a username');

    writeTelegram({ allowFrom: ["123456789"] });
    const set = await runCli(["config", "set", "channels.telegram.groupAllowFrom", '["@bob"]'], { home });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain("Not written");
    expect(set.stderr).toContain('channels.telegram.groupAllowFrom[0]: "@bob" is a username');
  });
});
