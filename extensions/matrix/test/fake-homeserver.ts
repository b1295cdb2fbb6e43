// The Matrix plugin against @openclaw/testkit's fake homeserver: a bot account, people who talk to
// it through the fake's API, and a session run with the SDK's test AccountContext.
import { mergeAccountConfig } from "@openclaw/plugin-sdk";
import { createTestAccountContext, type TestAccountContext } from "@openclaw/plugin-sdk/testing";
import { type FakeHomeserver, quietMatrixSdkLogs, startFakeHomeserver } from "@openclaw/testkit/matrix";
import configEntry from "../src/config.js";
import plugin, { type MatrixAccount, type MatrixSession } from "../src/index.js";

export const BOT = "@bot:fake.test";

export interface FakeWorld {
  fake: FakeHomeserver;
  /** `channels.matrix` pointing at the fake as the bot. */
  config: Record<string, unknown>;
  /** Registers a person (once) and returns their user id. */
  person(localpart: string): Promise<string>;
  /** A person's client-server API call with their token, e.g. `api("@alice:fake.test", "POST", "/createRoom", {...})`. */
  api(userId: string, method: string, path: string, body?: unknown, contentType?: string): Promise<any>;
  /** A room `creator` made with the bot in it (joined), optionally a DM. */
  roomWithBot(creator: string, opts?: { isDirect?: boolean; name?: string }): Promise<string>;
  close(): Promise<void>;
}

/** Starts the fake with a registered bot; `extra` is laid over `channels.matrix`. */
export async function startWorld(extra: Record<string, unknown> = {}): Promise<FakeWorld> {
  await quietMatrixSdkLogs();
  const fake = await startFakeHomeserver();
  const bot = await fake.registerUser("bot", { displayName: "Claw" });
  const tokens = new Map<string, string>();
  return {
    fake,
    config: { homeserver: fake.baseUrl, accessToken: bot.accessToken, ...extra },
    async person(localpart) {
      const userId = `@${localpart}:${fake.serverName}`;
      if (!tokens.has(userId)) tokens.set(userId, (await fake.registerUser(localpart, { displayName: localpart })).accessToken);
      return userId;
    },
    async api(userId, method, path, body, contentType = "application/json") {
      const prefix = path.startsWith("/upload") ? "/_matrix/media/v3" : "/_matrix/client/v3";
      const response = await fetch(`${fake.baseUrl}${prefix}${path}`, {
        method,
        headers: { authorization: `Bearer ${tokens.get(userId)}`, "content-type": contentType },
        ...(body === undefined ? {} : { body: body instanceof Uint8Array ? body : JSON.stringify(body) }),
      });
      const json = await response.json();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    },
    async roomWithBot(creator, opts = {}) {
      const roomId = fake.createRoom(creator, { invite: [BOT], ...opts });
      fake.join(BOT, roomId);
      if (opts.isDirect) fake.setDirect(BOT, { ...((fake.accountData(BOT, "m.direct") as object) ?? {}), [creator]: [roomId] });
      return roomId;
    },
    close: () => fake.close(),
  };
}

export interface RunningBot {
  ctx: TestAccountContext<MatrixAccount>;
  session: MatrixSession;
  /** Stops the account and waits until its session closed. */
  stop(): Promise<void>;
}

/** Resolves `channel` for the default account and connects it; `credentialsDir` reuses a previous run's. */
export async function connectBot(channel: Record<string, unknown>, opts: { credentialsDir?: string } = {}): Promise<RunningBot> {
  const parsed = configEntry.schema.parse(channel);
  const account = plugin.resolveAccount({
    accountId: "default",
    config: mergeAccountConfig(parsed, "default") as never,
    channel: parsed,
    env: {},
  });
  const ctx = createTestAccountContext(account);
  if (opts.credentialsDir) ctx.credentialsDir = opts.credentialsDir;
  const session = (await plugin.connect(ctx)) as MatrixSession;
  return {
    ctx,
    session,
    async stop() {
      ctx.stop();
      await session.closed;
    },
  };
}

/** Resolves with the first value `read` gives, re-checked every 10 ms (default timeout 5 s). */
export async function eventually<T>(read: () => T | undefined | null | false, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
