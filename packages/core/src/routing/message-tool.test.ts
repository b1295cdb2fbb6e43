import { describe, expect, it } from "vitest";
import type { ToolContext } from "../tools/index.js";
import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";
import { createMessageTool, parseMessageTarget as parseTarget, type MessageSendTarget } from "./index.js";

const config = {
  channels: {
    telegram: {
      allowFrom: ["111"],
      groups: { "-100": {}, "-200": { enabled: false } },
      accounts: { default: {}, work: { allowFrom: ["222"], groupPolicy: "disabled" }, off: { enabled: false } },
    },
    matrix: { dmPolicy: "open", allowFrom: ["*"], groupPolicy: "open" },
    whatsapp: { enabled: false },
  },
};

const approved = new Set(["telegram/default/333"]);
const pairing = {
  isApproved: (channel: string, accountId: string, senderId: string) => approved.has(`${channel}/${accountId}/${senderId}`),
};

// Id rules as the channels' plugins declare them (the spelling of an id may tell its chat kind).
const RULES: Record<string, ChannelIdRules> = {
  telegram: { prefixes: ["tg"], chatKindOf: (id) => (id.startsWith("-") ? "group" : /^\d+$/.test(id) ? "direct" : undefined) },
  matrix: { chatKindOf: (id) => (id.startsWith("@") ? "direct" : id.startsWith("!") || id.startsWith("#") ? "group" : undefined) },
};
const rulesOf = (channel: string) => RULES[channel];
const parseMessageTarget: typeof parseTarget = (text, cfg, options = {}) => parseTarget(text, cfg, { rulesOf, ...options });

function setup(overrides: { config?: unknown } = {}) {
  const sent: { target: MessageSendTarget; text: string }[] = [];
  const tool = createMessageTool({
    config: overrides.config ?? config,
    pairing,
    rulesOf,
    send: async (target, text) => {
      sent.push({ target, text });
      return { messageIds: [`m${sent.length}`] };
    },
  });
  return { tool, sent };
}

const ctx = { signal: new AbortController().signal } as ToolContext;

describe("the message tool", () => {
  it("is the messaging-group tool named message with a JSON Schema of its arguments", () => {
    const { tool } = setup();
    expect(tool.name).toBe("message");
    expect(tool.groups).toEqual(["group:messaging"]);
    expect(tool.parameters).toMatchObject({ type: "object", required: ["target", "text"] });
  });

  it("sends to an allowed DM on the default account and reports the message ids", async () => {
    const { tool, sent } = setup();
    const result = await tool.execute({ target: "telegram:111", text: "hello" }, ctx);
    expect(result.isError).toBeFalsy();
    expect(result.content).toBe("Sent to telegram:default:111 as message m1.");
    expect(sent).toEqual([{ target: { channel: "telegram", accountId: "default", chat: { kind: "direct", id: "111" } }, text: "hello" }]);
    expect(result.details).toMatchObject({ messageIds: ["m1"] });
  });

  it("allows approved pairings and refuses strangers, per account", async () => {
    const { tool, sent } = setup();
    expect((await tool.execute({ target: "telegram:333", text: "hi" }, ctx)).isError).toBeFalsy();
    const stranger = await tool.execute({ target: "telegram:444", text: "hi" }, ctx);
    expect(stranger.isError).toBe(true);
    expect(stranger.content).toContain("refused");
    expect(stranger.content).toContain("openclaw pairing approve");
    // Account "work" has its own allowFrom, and 333 was approved on "default" only.
    expect((await tool.execute({ target: "telegram:work:222", text: "hi" }, ctx)).isError).toBeFalsy();
    expect((await tool.execute({ target: "telegram:work:333", text: "hi" }, ctx)).isError).toBe(true);
    expect(sent.map((s) => `${s.target.accountId}:${s.target.chat.id}`)).toEqual(["default:333", "work:222"]);
  });

  it("applies groupPolicy and groups to group targets", async () => {
    const { tool, sent } = setup();
    expect((await tool.execute({ target: "telegram:-100", text: "hi" }, ctx)).isError).toBeFalsy();
    expect((await tool.execute({ target: "telegram:-999", text: "hi" }, ctx)).content).toContain("not listed");
    expect((await tool.execute({ target: "telegram:-200", text: "hi" }, ctx)).content).toContain("enabled: false");
    expect((await tool.execute({ target: "telegram:work:-100", text: "hi" }, ctx)).content).toContain('groupPolicy "disabled"');
    expect((await tool.execute({ target: "matrix:!room:hs", text: "hi", threadId: "$t" }, ctx)).isError).toBeFalsy();
    expect(sent.map((s) => s.target.chat)).toEqual([
      { kind: "group", id: "-100" },
      { kind: "group", id: "!room:hs", threadId: "$t" },
    ]);
  });

  it("validates the target: unconfigured or disabled channel, unknown or disabled account, bad shape", async () => {
    const { tool, sent } = setup();
    const errors = async (target: string) => (await tool.execute({ target, text: "x" }, ctx)).content;
    expect(await errors("discord:1")).toContain('channel "discord" is not configured; configured channels: telegram, matrix, whatsapp');
    expect(await errors("whatsapp:+1555")).toContain("disabled");
    expect(await errors("telegram:nope:111")).toContain('has no account "nope"; its accounts: default, work, off');
    expect(await errors("telegram:off:111")).toContain("accounts.off.enabled is false");
    expect(await errors("telegram")).toContain('"<channel>:<chat>"');
    expect(await errors("telegram:")).toContain('"<channel>:<chat>"');
    expect((await tool.execute({ target: "telegram:111", text: "  " }, ctx)).content).toContain("text is empty");
    expect((await tool.execute({ target: "telegram:111" }, ctx)).isError).toBe(true);
    expect(sent).toEqual([]);
  });

  it("reports a failed send as an error result", async () => {
    const tool = createMessageTool({
      config,
      pairing,
      send: async () => {
        throw new Error("429 too many requests");
      },
    });
    const result = await tool.execute({ target: "telegram:111", text: "x" }, ctx);
    expect(result).toMatchObject({ isError: true, content: "message failed: 429 too many requests" });
  });
});

describe("parseMessageTarget", () => {
  it("keeps colons inside chat ids and infers the chat kind", () => {
    expect(parseMessageTarget("matrix:@alice:hs", config)).toEqual({
      ok: true,
      target: { channel: "matrix", accountId: "default", chat: { kind: "direct", id: "@alice:hs" } },
    });
    expect(parseMessageTarget("Telegram:WORK:-100", config)).toMatchObject({
      ok: true,
      target: { channel: "telegram", accountId: "work", chat: { kind: "group", id: "-100" } },
    });
    expect(parseMessageTarget("telegram:111", config, { kind: "group" })).toMatchObject({ target: { chat: { kind: "group" } } });
  });

  it("uses defaultAccount, else default, else the only account; asks for one when ambiguous", () => {
    const two = { channels: { telegram: { accounts: { a: {}, b: {} } } } };
    expect(parseMessageTarget("telegram:1", two)).toMatchObject({ ok: false, error: expect.stringContaining("several accounts") });
    expect(parseMessageTarget("telegram:1", { channels: { telegram: { defaultAccount: "b", accounts: { a: {}, b: {} } } } })).toMatchObject(
      {
        target: { accountId: "b" },
      },
    );
    expect(parseMessageTarget("telegram:1", { channels: { telegram: { accounts: { solo: {} } } } })).toMatchObject({
      target: { accountId: "solo" },
    });
    expect(parseMessageTarget("telegram:1", two, { listAccounts: () => ["default", "a", "b"] })).toMatchObject({
      target: { accountId: "default" },
    });
  });

  it("infers a group from the configured groups when the id does not tell", () => {
    const cfg = { channels: { qqbot: { groups: { G123: {} } } } };
    expect(parseMessageTarget("qqbot:g123", cfg)).toMatchObject({ target: { chat: { kind: "group" } } });
    expect(parseMessageTarget("qqbot:u123", cfg)).toMatchObject({ target: { chat: { kind: "direct" } } });
  });
});
