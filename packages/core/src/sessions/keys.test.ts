import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildSessionKey,
  isSubagentSessionKey,
  normalizeAgentId,
  parseSessionKey,
  resetTypeForKey,
  sessionKind,
  type SessionKeyInput,
} from "./index.js";

describe("buildSessionKey", () => {
  const cases: Array<[string, SessionKeyInput, string]> = [
    ["main", { kind: "main" }, "agent:main:main"],
    ["main with agent and mainKey", { kind: "main", agentId: "Work", mainKey: "Home" }, "agent:work:home"],
    ["DM, default scope main", { kind: "direct", channel: "telegram", peerId: "123" }, "agent:main:main"],
    ["DM per-peer", { kind: "direct", channel: "telegram", peerId: "123", dmScope: "per-peer" }, "agent:main:direct:123"],
    [
      "DM per-channel-peer",
      { kind: "direct", agentId: "ops", channel: "Telegram", peerId: 123, dmScope: "per-channel-peer" },
      "agent:ops:telegram:direct:123",
    ],
    [
      "DM per-account-channel-peer",
      { kind: "direct", channel: "matrix", accountId: "Bot1", peerId: "@Alice:HS.org", dmScope: "per-account-channel-peer" },
      "agent:main:matrix:bot1:direct:@alice:hs.org",
    ],
    ["group", { kind: "group", channel: "telegram", id: -100123 }, "agent:main:telegram:group:-100123"],
    ["channel", { kind: "channel", channel: "Feishu", id: "OC_abc" }, "agent:main:feishu:channel:oc_abc"],
    ["group, groupScope main", { kind: "group", channel: "telegram", id: 5, groupScope: "main" }, "agent:main:main"],
    ["Telegram topic", { kind: "group", channel: "telegram", id: -100123, topicId: 42 }, "agent:main:telegram:group:-100123:topic:42"],
    [
      "thread in a channel",
      { kind: "channel", channel: "matrix", id: "!room:hs", threadId: "$Ev" },
      "agent:main:matrix:channel:!room:hs:thread:$ev",
    ],
    [
      "thread on a per-peer DM",
      { kind: "direct", channel: "qqbot", peerId: "u1", dmScope: "per-peer", threadId: "T9" },
      "agent:main:direct:u1:thread:t9",
    ],
    ["sub-agent", { kind: "subagent", agentId: "main", id: "ABC-1" }, "agent:main:subagent:abc-1"],
    [
      "nested sub-agent",
      { kind: "subagent", id: "child", parentKey: "agent:main:subagent:parent" },
      "agent:main:subagent:parent:subagent:child",
    ],
    ["sub-agent of a non-sub-agent parent", { kind: "subagent", id: "x", parentKey: "agent:main:main" }, "agent:main:subagent:x"],
    ["acp", { kind: "acp", agentId: "a", id: "U1" }, "agent:a:acp:u1"],
    ["cron", { kind: "cron", jobId: "Nightly" }, "cron:nightly"],
    ["agent cron", { kind: "cron", agentId: "Main", jobId: "Ab12" }, "agent:main:cron:ab12"],
    ["hook", { kind: "hook", id: "H1" }, "hook:h1"],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(buildSessionKey(input)).toBe(expected);
  });

  it("turns missing or blank ids into unknown", () => {
    expect(buildSessionKey({ kind: "direct", dmScope: "per-channel-peer" })).toBe("agent:main:unknown:direct:unknown");
    expect(buildSessionKey({ kind: "group", channel: " ", id: "" })).toBe("agent:main:unknown:group:unknown");
    expect(buildSessionKey({ kind: "direct", channel: "wa", peerId: "1", dmScope: "per-account-channel-peer" })).toBe(
      "agent:main:wa:unknown:direct:1",
    );
  });

  it("maps linked identities to the canonical name for non-main DM scopes", () => {
    const identityLinks = { Alice: ["telegram:123", "matrix:@alice:hs", "555"] };
    const dm = (channel: string, peerId: string, dmScope: "per-peer" | "main" | "per-channel-peer") =>
      buildSessionKey({ kind: "direct", channel, peerId, dmScope, identityLinks });
    expect(dm("telegram", "123", "per-peer")).toBe("agent:main:direct:alice");
    expect(dm("matrix", "@Alice:HS", "per-peer")).toBe("agent:main:direct:alice");
    expect(dm("whatsapp", "555", "per-peer")).toBe("agent:main:direct:alice");
    expect(dm("whatsapp", "123", "per-peer")).toBe("agent:main:direct:123");
    expect(dm("telegram", "123", "per-channel-peer")).toBe("agent:main:telegram:direct:alice");
    expect(dm("telegram", "123", "main")).toBe("agent:main:main");
  });
});

describe("parseSessionKey", () => {
  it("recognizes every kind", () => {
    expect(parseSessionKey("agent:main:main")).toMatchObject({ kind: "main", agentId: "main", mainKey: "main" });
    expect(parseSessionKey("agent:a:direct:u1")).toMatchObject({ kind: "direct", peerId: "u1" });
    expect(parseSessionKey("agent:a:telegram:direct:u1")).toMatchObject({ kind: "direct", channel: "telegram", peerId: "u1" });
    expect(parseSessionKey("agent:a:matrix:acc:direct:@u:hs")).toMatchObject({
      kind: "direct",
      channel: "matrix",
      accountId: "acc",
      peerId: "@u:hs",
    });
    expect(parseSessionKey("agent:a:telegram:group:-100")).toMatchObject({ kind: "group", channel: "telegram", chatId: "-100" });
    expect(parseSessionKey("agent:a:slack:channel:c1")).toMatchObject({ kind: "channel", chatId: "c1" });
    expect(parseSessionKey("agent:a:telegram:group:-100:topic:7")).toMatchObject({
      kind: "topic",
      chatId: "-100",
      topicId: "7",
      baseKey: "agent:a:telegram:group:-100",
    });
    expect(parseSessionKey("agent:a:matrix:channel:!r:hs:thread:$e")).toMatchObject({
      kind: "thread",
      baseKind: "channel",
      channel: "matrix",
      chatId: "!r:hs",
      threadId: "$e",
      baseKey: "agent:a:matrix:channel:!r:hs",
    });
    expect(parseSessionKey("agent:a:subagent:x:subagent:y")).toMatchObject({ kind: "subagent", subagentPath: ["x", "y"], id: "y" });
    expect(parseSessionKey("agent:a:acp:u")).toMatchObject({ kind: "acp", id: "u" });
    expect(parseSessionKey("cron:job1")).toMatchObject({ kind: "cron", jobId: "job1" });
    expect(parseSessionKey("agent:ops:cron:job1")).toMatchObject({ kind: "cron", agentId: "ops", jobId: "job1" });
    expect(parseSessionKey("hook:h")).toMatchObject({ kind: "hook", id: "h" });
    expect(parseSessionKey("telegram:dm:123")).toMatchObject({ kind: "direct", channel: "telegram", peerId: "123", legacy: true });
    expect(parseSessionKey("something else").kind).toBe("unknown");
    expect(parseSessionKey("agent:").kind).toBe("unknown");
  });

  it("lowercases its input", () => {
    expect(parseSessionKey(" AGENT:Main:MAIN ").key).toBe("agent:main:main");
  });

  it("gives kinds and reset types the other modules need", () => {
    expect(sessionKind("agent:main:main")).toBe("main");
    expect(isSubagentSessionKey("agent:main:subagent:1")).toBe(true);
    expect(isSubagentSessionKey("agent:main:main")).toBe(false);
    expect(resetTypeForKey("agent:main:telegram:group:1")).toBe("group");
    expect(resetTypeForKey("agent:main:telegram:group:1:topic:2")).toBe("thread");
    expect(resetTypeForKey("agent:main:main:thread:2")).toBe("thread");
    expect(resetTypeForKey("agent:main:direct:u")).toBe("direct");
  });

  it("round-trips built keys (property)", () => {
    const id = fc.stringMatching(/^[a-z0-9_@!$.-]{1,12}$/);
    fc.assert(
      fc.property(id, id, id, id, fc.constantFrom("group", "channel"), (agent, channel, chat, thread, kind) => {
        const agentId = normalizeAgentId(agent);
        const key = buildSessionKey({ kind, agentId, channel, id: chat, threadId: thread });
        const parsed = parseSessionKey(key);
        expect(parsed).toMatchObject({ kind: "thread", baseKind: kind, agentId, channel, chatId: chat, threadId: thread });
        const dmKey = buildSessionKey({
          kind: "direct",
          agentId,
          channel,
          peerId: chat,
          accountId: thread,
          dmScope: "per-account-channel-peer",
        });
        expect(parseSessionKey(dmKey)).toMatchObject({ kind: "direct", agentId, channel, accountId: thread, peerId: chat });
      }),
    );
  });
});

describe("normalizeAgentId", () => {
  it.each([
    [undefined, "main"],
    ["", "main"],
    ["  ", "main"],
    ["Main", "main"],
    ["work bot", "work-bot"],
    ["a__b--c", "a__b--c"],
    ["--x!!y--", "x-y"],
    ["日本", "main"],
    ["x".repeat(80), "x".repeat(64)],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeAgentId(input)).toBe(expected);
  });

  it("always yields a valid id (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (s) => {
        expect(normalizeAgentId(s)).toMatch(/^[a-z0-9][a-z0-9_-]{0,63}$/);
      }),
    );
  });
});
