import { AccountConfigError } from "@openclaw/plugin-sdk";
import { startFakeTelegram, type FakeTelegram } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTelegramPlugin } from "../src/index.js";
import { resolveFromConfig } from "./helpers.js";

let fake: FakeTelegram;
beforeEach(async () => {
  fake = await startFakeTelegram();
});
afterEach(async () => {
  await fake.close();
});

const check = (config: Record<string, unknown>) =>
  createTelegramPlugin().checkAccount!(resolveFromConfig({ apiRoot: fake.apiRoot, ...config }), { signal: AbortSignal.timeout(10_000) });

describe("checkAccount (what openclaw onboard asks before saving)", () => {
  it("answers with the bot's @username from one getMe", async () => {
    expect(await check({ botToken: fake.token })).toEqual({ identity: `@${fake.botUser.username}` });
    expect(fake.calls.filter((c) => c.method === "getMe")).toHaveLength(1);
  });

  it("a refused token is an AccountConfigError naming the key and where to get a valid one", async () => {
    const err = await check({ botToken: "111:wrong" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccountConfigError);
    expect((err as Error).message).toContain("Telegram rejected the bot token (401 Unauthorized): check channels.telegram.botToken");
  });

  it("an API root where nothing answers names that root", async () => {
    const root = fake.apiRoot;
    await fake.close();
    await expect(check({ botToken: fake.token })).rejects.toThrow(`Telegram getMe failed at ${root}`);
  });
});
