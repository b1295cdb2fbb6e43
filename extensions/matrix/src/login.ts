/**
 * Logging in: an access token is checked with `/whoami` (which names the user and device); a
 * password login happens once and its token is kept in `<credentialsDir>/session.json` (mode
 * 0600), reused at every later start until the homeserver refuses it.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { AccountConfigError, type HttpFetchResponse, httpFetch } from "@openclaw/plugin-sdk";
import { accountKeyPath, type MatrixAccount } from "./account.js";
import { ensurePrivateDir, writePrivateFileAtomic } from "./crypto/private-file.js";

/** Who the bot is on the homeserver, and the token it acts with. */
export interface MatrixLogin {
  userId: string;
  accessToken: string;
  deviceId?: string;
}

/** The file a password login's token is kept in, under the account's credentials folder. */
export const SESSION_FILE = "session.json";

interface StoredSession extends MatrixLogin {
  homeserver: string;
}

async function call(
  homeserver: string,
  method: "GET" | "POST",
  endpoint: string,
  init: { token?: string; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let response: HttpFetchResponse;
  try {
    response = await httpFetch(`${homeserver}/_matrix/client/v3${endpoint}`, {
      method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch (error) {
    throw new Error(`Matrix: cannot reach the homeserver ${homeserver} (${(error as Error).message})`);
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: response.status, body };
}

/** Asks the homeserver who a token belongs to; `undefined` when the token is refused (401/403). */
export async function whoami(homeserver: string, accessToken: string): Promise<MatrixLogin | undefined> {
  const res = await call(homeserver, "GET", "/account/whoami", { token: accessToken });
  if (res.status === 401 || res.status === 403) return undefined;
  if (res.status !== 200 || typeof res.body.user_id !== "string") {
    throw new Error(`Matrix: /whoami on ${homeserver} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  return {
    userId: res.body.user_id,
    accessToken,
    ...(typeof res.body.device_id === "string" ? { deviceId: res.body.device_id } : {}),
  };
}

async function readStored(file: string): Promise<StoredSession | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<StoredSession>;
    if (typeof parsed.accessToken === "string" && typeof parsed.userId === "string" && typeof parsed.homeserver === "string") {
      return parsed as StoredSession;
    }
  } catch {
    // missing or unreadable: log in again
  }
  return undefined;
}

/** Writes the session file with mode 0600 (atomically: a temporary file renamed over it). */
async function writeStored(dir: string, session: StoredSession): Promise<void> {
  await ensurePrivateDir(dir);
  await writePrivateFileAtomic(path.join(dir, SESSION_FILE), `${JSON.stringify(session, null, 2)}\n`);
}

/**
 * The login of an account. With `accessToken`: `/whoami` names the user (a refused token is an
 * `AccountConfigError` on `accessToken`). With `userId` + `password`: the kept token when it is
 * for the same homeserver and user and still accepted, else a new password login whose token is
 * kept (0600) for the next start. `deviceId` (the crypto store's device, else `deviceId` of the
 * config) is the device a password login asks for; a kept token of another device is replaced.
 */
export async function loginMatrix(account: MatrixAccount, credentialsDir: string, deviceId = account.deviceId): Promise<MatrixLogin> {
  if (account.auth.kind === "token") {
    const who = await whoami(account.homeserver, account.auth.accessToken);
    if (!who) {
      const key = accountKeyPath(account.accountId, "accessToken");
      throw new AccountConfigError(
        `${key}: ${account.homeserver} refused the access token (M_UNKNOWN_TOKEN); create a new token and set it.`,
        key,
      );
    }
    if (account.auth.userId !== undefined && account.auth.userId !== who.userId) {
      const key = accountKeyPath(account.accountId, "userId");
      throw new AccountConfigError(
        `${key} is ${account.auth.userId} but the access token belongs to ${who.userId}; fix or remove userId.`,
        key,
      );
    }
    return { ...who, ...(who.deviceId === undefined && account.deviceId !== undefined ? { deviceId: account.deviceId } : {}) };
  }
  const file = path.join(credentialsDir, SESSION_FILE);
  const stored = await readStored(file);
  const sameDevice = deviceId === undefined || stored?.deviceId === deviceId;
  if (stored && stored.homeserver === account.homeserver && stored.userId === account.auth.userId && sameDevice) {
    const who = await whoami(account.homeserver, stored.accessToken);
    if (who) return { userId: who.userId, accessToken: stored.accessToken, ...(stored.deviceId ? { deviceId: stored.deviceId } : {}) };
    await rm(file, { force: true });
  }
  const res = await call(account.homeserver, "POST", "/login", {
    body: {
      type: "m.login.password",
      identifier: { type: "m.id.user", user: account.auth.userId },
      password: account.auth.password,
      initial_device_display_name: account.deviceName,
      ...(deviceId !== undefined ? { device_id: deviceId } : {}),
    },
  });
  if (res.status === 403 || res.status === 401) {
    const key = accountKeyPath(account.accountId, "password");
    throw new AccountConfigError(
      `${key}: ${account.homeserver} refused the login of ${account.auth.userId} (${String(res.body.errcode ?? res.status)}); check userId and password.`,
      key,
    );
  }
  if (res.status !== 200 || typeof res.body.access_token !== "string") {
    throw new Error(`Matrix: login on ${account.homeserver} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  const login: MatrixLogin = {
    userId: typeof res.body.user_id === "string" ? res.body.user_id : account.auth.userId,
    accessToken: res.body.access_token,
    ...(typeof res.body.device_id === "string" ? { deviceId: res.body.device_id } : {}),
  };
  await writeStored(credentialsDir, { ...login, homeserver: account.homeserver });
  return login;
}
