// The QQ Bot guide (docs/channels/qqbot.md) followed as a new user would, against the fake QQ Bot
// platform and a slow fake model: the real `openclaw` CLI validates the config, the real gateway
// process connects the plugin (extensions/qqbot), a stranger's private message gets a pairing
// code, `openclaw pairing approve` lets them in, and their next message is answered through QQ's
// streaming message. Then the gateway is SIGKILLed while it streams, restarted, and resumes its
// QQ session: the interrupted message and one sent while it was down are each answered once.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeModelServer, type FakeQQBot, startFakeOpenAI, startFakeQQBot } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, makeTempHome, runCli } from "../helpers/cli.js";

const QQ_PLUGIN_DIR = fileURLToPath(new URL("../../../../extensions/qqbot/", import.meta.url));
const USER = "E4A0C3F1B2D34A5B8C9D0E1F2A3B4C5D";
const FILLER = "This answer is written slowly, a few words at a time, so that the streaming message grows while you watch it";

/** The answer the fake model gives: names the user's words back, ends with END. */
const answerFor = (text: string) => `You said: ${text.trim()}. ${FILLER}. END`;

interface Life {
  proc: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

let temp: { home: string; cleanup(): void };
let qq: FakeQQBot;
let llm: FakeModelServer;
let life: Life | undefined;

beforeEach(async () => {
  temp = makeTempHome("openclaw-qq-guide-");
  qq = await startFakeQQBot({ heartbeatIntervalMs: 1000 });
  llm = await startFakeOpenAI({
    responder: (request) => {
      // Answers every user message since its last answer (messages that arrive together are one turn).
      const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
      const since = messages.slice(messages.findLastIndex((m) => m.role === "assistant") + 1);
      const asked = since.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content.split("\n").at(-1)! : ""));
      const text = answerFor(asked.join(" + "));
      const steps = [];
      for (let i = 0; i < text.length; i += 20) {
        if (i > 0) steps.push({ delayMs: 150 });
        steps.push({ text: text.slice(i, i + 20) });
      }
      return steps;
    },
  });
});

afterEach(async () => {
  if (life && life.proc.exitCode === null && life.proc.signalCode === null) {
    life.proc.kill("SIGKILL");
    await life.exited;
  }
  life = undefined;
  await qq.close();
  await llm.close();
  temp.cleanup();
});

/** Starts `openclaw gateway`; resolves once the QQ account is connected. */
function startGateway(): Promise<Life> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENCLAW_")) env[k] = v;
  env.HOME = temp.home;
  const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], { env, cwd: temp.home, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the QQ account did not connect:\n${stderr}`)), 30_000);
    proc.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      if (/account qqbot:default connected/.test(stderr)) {
        clearTimeout(timer);
        resolve({ proc, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}) before the QQ account connected:\n${stderr}`)));
  });
}

/** Steps 3 of the guide: the secret in a 0600 file, the config with the native stream on. */
function configure(): void {
  const stateDir = path.join(temp.home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(path.join(stateDir, "qqbot.secret"), qq.clientSecret, { mode: 0o600 });
  writeFileSync(
    path.join(stateDir, "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true, workspace: path.join(temp.home, "ws") } },
      models: { providers: { local: { baseUrl: llm.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
      plugins: { load: { paths: [QQ_PLUGIN_DIR] } },
      channels: {
        qqbot: {
          appId: qq.appId,
          clientSecretFile: "~/.openclaw/qqbot.secret",
          streaming: { nativeTransport: true },
          apiBase: qq.apiBase,
          tokenUrl: qq.tokenUrl,
        },
      },
    }),
  );
}

/** The text of the user's newest finished streaming message, once it is complete. */
const finishedStreamText = (openid: string, minCount: number) => {
  const done = qq.streams(openid).filter((s) => s.done);
  return done.length >= minCount ? done.at(-1)!.text : undefined;
};

describe("docs/channels/qqbot.md, followed as a new user would", () => {
  it("takes a stranger from a pairing code to a private chat answered with QQ's streaming message", async () => {
    expect(existsSync(CLI_ENTRY), `${CLI_ENTRY} is missing: run \`pnpm build\` first`).toBe(true);
    configure();
    const validate = await runCli(["config", "validate"], { home: temp.home });
    expect(validate.code, validate.stderr).toBe(0);

    life = await startGateway();
    const hello = qq.userSendsC2C({ openid: USER, content: "hello" });
    const codeMessage = await qq.waitFor(
      () => qq.c2cMessages(USER).find((m) => /pairing approve qqbot ([A-Z0-9]{8})/.test(m.content)),
      15_000,
    );
    expect(codeMessage.replyTo).toBe(hello);
    const code = /pairing approve qqbot ([A-Z0-9]{8})/.exec(codeMessage.content)![1]!;
    expect(llm.requests).toHaveLength(0);

    const list = await runCli(["pairing", "list"], { home: temp.home });
    // The sender's openid, as QQ spells it (the id to put in allowFrom).
    expect(list.stdout).toContain(USER);
    const approve = await runCli(["pairing", "approve", "qqbot", code], { home: temp.home });
    expect(approve.code, approve.stderr).toBe(0);

    const question = qq.userSendsC2C({ openid: USER, content: "what can you do?" });
    const text = await qq.waitFor(() => finishedStreamText(USER, 1), 20_000);
    expect(text).toBe(answerFor("what can you do?"));
    const stream = qq.streams(USER)[0]!;
    expect(stream.msgId).toBe(question);
    expect(stream.chunks.length).toBeGreaterThan(2); // it grew while the model wrote
    expect(qq.passiveRepliesUsed(question)).toBeLessThanOrEqual(5);

    life.proc.kill("SIGTERM");
    expect(await life.exited).toBe(0);
  }, 90_000);

  it("after kill -9 in the middle of a streamed answer, the restart resumes the QQ session and answers each message once", async () => {
    configure();
    const stateDir = path.join(temp.home, ".openclaw");
    // The owner: listed by openid, as the guide's last step suggests.
    const config = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(path.join(stateDir, "openclaw.json"), "utf8")));
    config.channels.qqbot.allowFrom = [USER];
    writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));

    life = await startGateway();
    const first = qq.userSendsC2C({ openid: USER, content: "first question" });
    // Killed once the streaming message has shown some text, before it is finished.
    await qq.waitFor(() => qq.streams(USER).some((s) => s.chunks.length >= 2 && !s.done), 20_000);
    life.proc.kill("SIGKILL");
    await life.exited;
    const identifiesBefore = qq.gateway.identifies;
    const second = qq.userSendsC2C({ openid: USER, content: "second question" });

    life = await startGateway();
    await qq.waitFor(() => {
      const texts = qq
        .streams(USER)
        .filter((s) => s.done)
        .map((s) => s.text);
      return texts.some((t) => t.includes("first question")) && texts.some((t) => t.includes("second question"));
    }, 30_000);
    expect(qq.gateway.resumes).toBeGreaterThanOrEqual(1);
    expect(qq.gateway.identifies).toBe(identifiesBefore); // resumed, not a fresh session
    life.proc.kill("SIGTERM");
    expect(await life.exited).toBe(0);

    const finished = qq
      .streams(USER)
      .filter((s) => s.done)
      .map((s) => s.text);
    const mentions = (words: string) => finished.filter((t) => t.includes(words)).length;
    expect(mentions("first question"), JSON.stringify(finished)).toBe(1);
    expect(mentions("second question"), JSON.stringify(finished)).toBe(1);
    for (const id of [first, second]) expect(qq.passiveRepliesUsed(id)).toBeLessThanOrEqual(5);
  }, 120_000);
});
