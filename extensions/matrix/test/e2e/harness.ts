// Shared by the Synapse end-to-end tests: the real `openclaw gateway` process (packages/core's
// built CLI) with this plugin loaded from its folder, a fake model, and config/pairing helpers.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeModelServer, startFakeOpenAI } from "@openclaw/testkit";

export const CLI_ENTRY = fileURLToPath(new URL("../../../../packages/core/dist/cli/main.js", import.meta.url));
export const MATRIX_PLUGIN_DIR = fileURLToPath(new URL("../../", import.meta.url));

/** A pattern matching `text` literally (for gateway log lines). */
export const logLine = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

/** Whitespace collapsed, for comparing a reply split over several events with the model's text. */
export const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

/** Numbered sentences, so a repeat or a gap shows: about `chars` characters in all. */
export function longAnswer(chars: number, tag: string): string {
  const out: string[] = [];
  let length = 0;
  for (let i = 1; length < chars; i++) {
    const sentence = `${tag} sentence ${String(i).padStart(3, "0")} is part of a long answer written a few words at a time.`;
    out.push(sentence);
    length += sentence.length + 1;
  }
  return out.join(" ").slice(0, chars).trimEnd();
}

/** The text the agent answers to `asked`: short unless it asks for "LONG <tag>". */
export function answerFor(asked: string): string {
  const long = /LONG (\w+)/.exec(asked);
  return long ? longAnswer(4000, long[1]!) : `You said: ${asked.trim()}. END`;
}

/** The user's words in the model's last user message (the gateway may put a header line first). */
export function lastAsked(body: any): string {
  const messages = (body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
  return text.split("\n").at(-1) ?? "";
}

/**
 * A fake OpenAI-compatible model that streams `answerFor(question)` in 100-character deltas, 40 ms
 * apart; a question with "PAUSE" in it holds the finished text 1.5 s before the turn ends (so a
 * preview shows all of it before the final).
 */
export function startModel(): Promise<FakeModelServer> {
  return startFakeOpenAI({
    responder: (request) => {
      const text = answerFor(lastAsked(request.body));
      const steps = [];
      for (let i = 0; i < text.length; i += 100) {
        if (i > 0) steps.push({ delayMs: 40 });
        steps.push({ text: text.slice(i, i + 100) });
      }
      if (text.includes("PAUSE")) steps.push({ delayMs: 1_500 });
      return steps;
    },
  });
}

export interface TempHome {
  home: string;
  stateDir: string;
  cleanup(): void;
}

export function makeHome(prefix: string): TempHome {
  const home = mkdtempSync(path.join(tmpdir(), prefix));
  const stateDir = path.join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  return { home, stateDir, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Writes `~/.openclaw/openclaw.json` with the fake model, this plugin, and `channels.matrix`. */
export function writeConfig(home: TempHome, model: FakeModelServer, matrix: Record<string, unknown>): void {
  writeFileSync(
    path.join(home.stateDir, "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true, workspace: path.join(home.home, "ws") } },
      models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
      plugins: { load: { paths: [MATRIX_PLUGIN_DIR] } },
      channels: { matrix },
    }),
  );
}

function cliEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("OPENCLAW_") && !k.startsWith("MATRIX_")) env[k] = v;
  }
  env.HOME = home;
  return env;
}

/** `openclaw <args>` as a whole process with HOME at `home`. */
export function runCli(args: string[], home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env: cliEnv(home), cwd: home, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface GatewayLife {
  proc: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves when the gateway's log matches `pattern` (already or later). */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (kill -9) and wait. */
  kill(): Promise<void>;
}

/** Starts `openclaw gateway --port 0`; resolves once the Matrix account is connected. */
export async function startGateway(home: TempHome, timeoutMs = 90_000): Promise<GatewayLife> {
  if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run \`pnpm build\` first`);
  const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], {
    env: cliEnv(home.home),
    cwd: home.home,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const watchers = new Set<() => void>();
  proc.stderr!.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    for (const watch of [...watchers]) watch();
  });
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const waitForLog = (pattern: RegExp, ms = 30_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (!match) return;
        done();
        resolve(match);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the gateway log did not show ${pattern} within ${ms} ms:\n${stderr}`));
      }, ms);
      const onExit = () => {
        done();
        reject(new Error(`the gateway exited before its log showed ${pattern}:\n${stderr}`));
      };
      const done = () => {
        clearTimeout(timer);
        watchers.delete(check);
        proc.off("exit", onExit);
      };
      watchers.add(check);
      proc.once("exit", onExit);
      check();
    });
  const life: GatewayLife = {
    proc,
    stderr: () => stderr,
    exited,
    waitForLog,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      return exited;
    },
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      await exited;
    },
  };
  try {
    await waitForLog(/account matrix:default connected/, timeoutMs);
  } catch (error) {
    await life.kill();
    throw error;
  }
  return life;
}
