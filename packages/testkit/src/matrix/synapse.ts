import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { createWriteStream, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { findSynapsePython, signingKeyFile, synapseConfig, synapseMissingMessage } from "./synapse-config.js";

export interface StartSynapseOptions {
  /** Folder for the config, SQLite database, media and log; kept on stop. Default: a temp folder removed on stop. */
  dataDir?: string;
  /** Server name, the part after the colon in user ids. Default "localhost". */
  serverName?: string;
  /** Extra homeserver.yaml keys, laid over the defaults (e.g. real `rc_message` limits). */
  config?: Record<string, unknown>;
  /** How long to wait for the client API to answer. Default 90 s (Python's imports are slow on a busy machine). */
  startTimeoutMs?: number;
}

export interface SynapseUser {
  userId: string;
  accessToken: string;
  deviceId: string;
  password: string;
}

/** A running Synapse on 127.0.0.1. */
export interface Synapse {
  /** `http://127.0.0.1:<port>`, the homeserver URL a client is given. */
  baseUrl: string;
  serverName: string;
  dataDir: string;
  /** Synapse's own log (stdout and stderr), for a failing test's message. */
  logFile: string;
  /**
   * Registers a user through the shared-secret admin API and returns a logged-in device.
   * Default password: `<localpart>-password`. Fails when the localpart is taken.
   */
  registerUser(localpart: string, opts?: { password?: string; admin?: boolean; displayName?: string }): Promise<SynapseUser>;
  /** Logs in again as an existing user (a new device unless `deviceId` is given). */
  login(userId: string, password: string, opts?: { deviceId?: string }): Promise<SynapseUser>;
  /** Stops Synapse (SIGTERM, then SIGKILL after 10 s) and removes its temp folder. Safe to call twice. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no loopback port");
  return address.port;
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function jsonRequest(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<any> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : {};
  if (!res.ok) throw new Error(`Synapse ${init.method ?? "GET"} ${new URL(url).pathname} -> ${res.status} ${text}`);
  return body;
}

async function waitUntilServing(child: ChildProcess, baseUrl: string, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Synapse ${exited} before serving; last lines of ${logFile}:\n${tail(logFile)}`);
    try {
      const res = await fetch(`${baseUrl}/_matrix/client/versions`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // Not listening yet: poll again (the process may still be importing).
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(
    `Synapse did not answer ${baseUrl}/_matrix/client/versions within ${timeoutMs} ms; last lines of ${logFile}:\n${tail(logFile)}`,
  );
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts a real Synapse (installed by `scripts/install-synapse.sh`) on a free 127.0.0.1 port with
 * SQLite, a registration shared secret, no federation and relaxed rate limits. Throws a message
 * naming scripts/install-synapse.sh when Synapse is not installed, and Synapse's log when it
 * does not come up. One start takes a few seconds (Python's imports and the SQLite schema):
 * share one Synapse across the tests of a file.
 */
export async function startSynapse(options: StartSynapseOptions = {}): Promise<Synapse> {
  const python = findSynapsePython();
  if (!python) throw new Error(synapseMissingMessage());
  const serverName = options.serverName ?? "localhost";
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "openclaw-synapse-")));
  await mkdir(path.join(dataDir, "media"), { recursive: true });
  const signingKeyPath = path.join(dataDir, "signing.key");
  await writeFile(signingKeyPath, signingKeyFile(), { mode: 0o600 });
  const sharedSecret = randomBytes(24).toString("hex");
  const port = await freePort();
  const configPath = path.join(dataDir, "homeserver.yaml");
  const config = synapseConfig({ dataDir, port, serverName, sharedSecret, signingKeyPath, overrides: options.config });
  await writeFile(configPath, JSON.stringify(config, null, 2), { mode: 0o600 });
  const logFile = path.join(dataDir, "synapse.log");
  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn(python, ["-m", "synapse.app.homeserver", "--config-path", configPath], {
    cwd: dataDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const baseUrl = `http://127.0.0.1:${port}`;
  const cleanup = async () => {
    await stopChild(child);
    log.end();
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(child, baseUrl, logFile, options.startTimeoutMs ?? 90_000);
  } catch (err) {
    await stopChild(child);
    log.end();
    throw err;
  }

  const login: Synapse["login"] = async (userId, password, opts = {}) => {
    const body = await jsonRequest(`${baseUrl}/_matrix/client/v3/login`, {
      body: {
        type: "m.login.password",
        identifier: { type: "m.id.user", user: userId },
        password,
        ...(opts.deviceId ? { device_id: opts.deviceId } : {}),
      },
    });
    return { userId: body.user_id, accessToken: body.access_token, deviceId: body.device_id, password };
  };

  let stopped: Promise<void> | undefined;
  return {
    baseUrl,
    serverName,
    dataDir,
    logFile,
    async registerUser(localpart, opts = {}) {
      const password = opts.password ?? `${localpart}-password`;
      const admin = opts.admin ?? false;
      const { nonce } = await jsonRequest(`${baseUrl}/_synapse/admin/v1/register`);
      const mac = createHmac("sha1", sharedSecret)
        .update([nonce, localpart, password, admin ? "admin" : "notadmin"].join("\0"))
        .digest("hex");
      const body = await jsonRequest(`${baseUrl}/_synapse/admin/v1/register`, {
        body: { nonce, username: localpart, password, admin, mac, ...(opts.displayName ? { displayname: opts.displayName } : {}) },
      });
      if (body.access_token && body.device_id) {
        return { userId: body.user_id, accessToken: body.access_token, deviceId: body.device_id, password };
      }
      return login(body.user_id, password);
    },
    login,
    stop() {
      stopped ??= cleanup();
      return stopped;
    },
  };
}
