// The access token against the fake QQ Bot token endpoint: cached, refreshed ahead of expiry, one
// request for concurrent callers, a refused secret named with its config key.
import { AccountConfigError } from "@openclaw/plugin-sdk";
import { type FakeQQBot, startFakeQQBot } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TokenManager } from "../src/index.js";

let fake: FakeQQBot;
beforeEach(async () => {
  fake = await startFakeQQBot({ tokenTtlSeconds: 7200 });
});
afterEach(async () => {
  await fake.close();
});

const tokenCalls = () => fake.calls.filter((c) => c.path.includes("getAppAccessToken")).length;

function manager(now: () => number, clientSecret = fake.clientSecret): TokenManager {
  return new TokenManager({ appId: fake.appId, clientSecret, tokenUrl: fake.tokenUrl, secretPath: "channels.qqbot.clientSecret" }, { now });
}

describe("the access token", () => {
  it("is cached until 5 minutes before it expires, then fetched again", async () => {
    let now = 1_000_000;
    const tokens = manager(() => now);
    const first = await tokens.get();
    now += 7200_000 - 5 * 60_000 - 1;
    expect(await tokens.get()).toBe(first);
    expect(tokenCalls()).toBe(1);
    now += 2;
    const second = await tokens.get();
    expect(tokenCalls()).toBe(2);
    expect(second).not.toBe(first);
  });

  it("is fetched once for concurrent callers", async () => {
    const tokens = manager(() => 0);
    const all = await Promise.all(Array.from({ length: 8 }, () => tokens.get()));
    expect(new Set(all).size).toBe(1);
    expect(tokenCalls()).toBe(1);
    tokens.invalidate();
    await Promise.all([tokens.get(), tokens.get(), tokens.refresh()]);
    expect(tokenCalls()).toBe(2);
  });

  it("a refused AppSecret is an AccountConfigError naming the key and the console", async () => {
    const error = await manager(() => 0, "wrong-secret")
      .get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountConfigError);
    expect((error as AccountConfigError).path).toBe("channels.qqbot.clientSecret");
    expect((error as Error).message).toMatch(/q\.qq\.com/);
  });
});
