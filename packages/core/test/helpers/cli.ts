import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI entry; `pnpm test` builds before running tests. */
export const CLI_ENTRY = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `openclaw <args>` as a whole process with HOME pointed at `home`, and no inherited
 * OPENCLAW_* variables (pass them in `env`). `entry` runs another copy of the CLI.
 */
export function runCli(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined>; input?: string; cwd?: string; entry?: string },
): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("OPENCLAW_")) env[k] = v;
  }
  env.HOME = options.home;
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? CLI_ENTRY, ...args], {
      env,
      cwd: options.cwd ?? options.home,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** A fresh temporary HOME; call the returned cleanup in afterEach. */
export function makeTempHome(prefix = "openclaw-test-"): { home: string; cleanup(): void } {
  const home = mkdtempSync(path.join(tmpdir(), prefix));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** The environment `runCli` gives the CLI: this process's, without OPENCLAW_*, HOME at `home`, plus `extra`. */
export function cliEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENCLAW_")) env[k] = v;
  return { ...env, HOME: home, ...extra };
}

/** A running `openclaw gateway --port 0` process (kill it in afterEach). */
export interface GatewayCliProcess {
  child: ChildProcess;
  port: number;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Spawns `openclaw gateway --port 0` and resolves once it logs the port it listens on. */
export function startGatewayCli(options: { home: string; env?: Record<string, string> }): Promise<GatewayCliProcess> {
  const child = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], {
    env: cliEnv(options.home, options.env),
    cwd: options.home,
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      const match = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve({ child, port: Number(match[1]), stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}) before listening:\n${stderr}`)));
  });
}

/**
 * Writes `<home>/.openclaw/openclaw.json` for a gateway on the fake model at `baseUrl`
 * (provider `local`, model `llama`, no bootstrap), with `extra` top-level keys merged in.
 */
export function writeFakeModelConfig(home: string, baseUrl: string, extra: Record<string, unknown> = {}): void {
  mkdirSync(path.join(home, ".openclaw"), { recursive: true });
  writeFileSync(
    path.join(home, ".openclaw", "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl, models: [{ id: "llama" }] } } },
      ...extra,
    }),
  );
}
