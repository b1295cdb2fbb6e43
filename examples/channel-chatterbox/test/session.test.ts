// Unit tests of the plugin's own rules, against the fake Chatterbox: which token an account uses,
// a refused token, and acknowledging an update only once the gateway has recorded it.
import { type AccountConfigOf, AccountConfigError, mergeAccountConfig } from "@openclaw/plugin-sdk";
import { createTestAccountContext } from "@openclaw/plugin-sdk/testing";
import { afterEach, expect, it, vi } from "vitest";
import type { chatterboxConfigSchema } from "../src/config.js";
import plugin from "../src/index.js";
import { type FakeChatterbox, startFakeChatterbox } from "./fake-chatterbox.js";

let fake: FakeChatterbox | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** What the gateway does before `connect`: validate `channels.chatterbox`, merge the account, resolve it. */
function resolve(channelConfig: Record<string, unknown>, accountId = "default", env: NodeJS.ProcessEnv = {}) {
  const channel = plugin.config.schema.parse(channelConfig);
  const config = mergeAccountConfig(channel, accountId) as AccountConfigOf<typeof chatterboxConfigSchema>;
  return plugin.resolveAccount({ accountId, config, channel, env });
}

it("a named account uses its own token, never the root's; the error names the key to set", () => {
  const config = { apiToken: "root-token", accounts: { work: {}, home: { apiToken: "home-token" } } };
  expect(resolve(config, "default").token).toBe("root-token");
  expect(resolve(config, "home").token).toBe("home-token");
  expect(() => resolve(config, "work")).toThrow(AccountConfigError);
  expect(() => resolve(config, "work")).toThrow(/^channels\.chatterbox\.accounts\.work\.apiToken is not set/);
  expect(resolve({}, "default", { CHATTERBOX_TOKEN: "env-token" }).token).toBe("env-token");
});

it("connect rejects with an AccountConfigError naming the key when Chatterbox refuses the token", async () => {
  fake = await startFakeChatterbox();
  const ctx = createTestAccountContext(resolve({ apiToken: "revoked", baseUrl: fake.url }));
  const refused = await plugin.connect(ctx).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(AccountConfigError);
  expect(refused).toMatchObject({ path: "channels.chatterbox.apiToken" });
});

it("an update is acknowledged only after the gateway recorded it, so a restart neither loses nor repeats it", async () => {
  const chatterbox = (fake = await startFakeChatterbox());
  const account = resolve({ apiToken: chatterbox.token, baseUrl: chatterbox.url });
  // 1. The gateway is stopping: it cannot record "hello".
  const stopping = createTestAccountContext(account, {
    onReceive() {
      stopping.stop("the gateway is stopping");
      throw new Error("the gateway is stopping");
    },
  });
  const first = await plugin.connect(stopping);
  chatterbox.userSays({ senderId: "u-ada", text: "hello" });
  await first.closed;
  expect(stopping.received).toEqual([]);

  // 2. After the restart (the same cursor store), "hello" comes again and is recorded.
  const restarted = createTestAccountContext(account);
  const second = await plugin.connect({ ...restarted, cursor: stopping.cursor });
  await vi.waitFor(() => expect(restarted.received.map((m) => m.text)).toEqual(["hello"]), { timeout: 5000 });
  restarted.stop();
  await second.closed;

  // 3. Once recorded, it is not delivered again: the next message is the first one seen.
  const later = createTestAccountContext(account);
  const third = await plugin.connect({ ...later, cursor: stopping.cursor });
  chatterbox.userSays({ senderId: "u-ada", text: "are you there?" });
  await vi.waitFor(() => expect(later.received.map((m) => m.text)).toEqual(["are you there?"]), { timeout: 5000 });
  later.stop();
  await third.closed;
});
