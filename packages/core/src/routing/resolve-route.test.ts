import type { InboundMessage } from "@openclaw/plugin-sdk";
import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import { resolveRoute as resolveWithRules } from "./index.js";

// Id rules as the channels' plugins declare them; core has none of its own.
const RULES: Record<string, ChannelIdRules> = { telegram: { prefixes: ["tg"] } };
const resolveRoute = (m: InboundMessage, config: unknown) => resolveWithRules(m, config, (channel) => RULES[channel]);

function message(
  over: {
    channel?: string;
    accountId?: string;
    kind?: "direct" | "group" | "channel";
    chatId?: string;
    threadId?: string;
    senderId?: string;
  } = {},
): InboundMessage {
  const kind = over.kind ?? "direct";
  const senderId = over.senderId ?? "111";
  return {
    channel: over.channel ?? "telegram",
    accountId: over.accountId ?? "default",
    messageId: "1",
    chat: {
      kind,
      id: over.chatId ?? (kind === "direct" ? senderId : "-100"),
      ...(over.threadId ? { threadId: over.threadId } : {}),
      // The Telegram plugin marks forum topics; other channels' threads are plain threads.
      ...(over.threadId && kind === "group" && (over.channel ?? "telegram") === "telegram" ? { threadKind: "topic" as const } : {}),
    },
    sender: { id: senderId },
    text: "hi",
    mentionsBot: true,
    receivedAt: 0,
  };
}

const agents = { entries: { main: {}, ops: {}, fam: {}, work: {}, any: {}, chan: {} } };

describe("resolveRoute: binding tiers", () => {
  const config = {
    agents,
    bindings: [
      { agentId: "chan", match: { channel: "telegram" } },
      { agentId: "any", match: { channel: "telegram", accountId: "*" } },
      { agentId: "work", match: { channel: "telegram", accountId: "work" } },
      { agentId: "fam", match: { channel: "telegram", peer: { kind: "group", id: "*" } } },
      { agentId: "ops", match: { channel: "telegram", peer: { kind: "group", id: "-100" } } },
      { agentId: "main", match: { channel: "telegram", peer: { kind: "direct", id: "tg:111" } } },
    ],
  };

  it("exact peer beats every other tier, whatever the order in bindings[]", () => {
    expect(resolveRoute(message({ kind: "group", chatId: "-100" }), config)).toMatchObject({
      agentId: "ops",
      binding: 4,
      matchedBy: "peer",
    });
    expect(resolveRoute(message({ senderId: "111" }), config)).toMatchObject({ agentId: "main", binding: 5, matchedBy: "peer" });
  });

  it("a thread inherits its parent chat's binding (parent-peer), and an exact thread binding beats it", () => {
    expect(resolveRoute(message({ kind: "group", chatId: "-100", threadId: "9" }), config)).toMatchObject({
      agentId: "ops",
      matchedBy: "parent-peer",
    });
    const withTopic = {
      agents,
      bindings: [...config.bindings, { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100:topic:9" } } }],
    };
    expect(resolveRoute(message({ kind: "group", chatId: "-100", threadId: "9" }), withTopic)).toMatchObject({
      agentId: "work",
      matchedBy: "peer",
      peerId: "-100:topic:9",
    });
    const matrix = {
      agents,
      bindings: [{ agentId: "ops", match: { channel: "matrix", peer: { kind: "group", id: "!room:hs:thread:$ev" } } }],
    };
    expect(
      resolveRoute(message({ channel: "matrix", kind: "group", chatId: "!Room:hs", threadId: "$EV", senderId: "@a:hs" }), matrix),
    ).toMatchObject({
      agentId: "ops",
      matchedBy: "peer",
    });
  });

  it("peer wildcard matches any chat of its kind only", () => {
    expect(resolveRoute(message({ kind: "group", chatId: "-200" }), config)).toMatchObject({
      agentId: "fam",
      matchedBy: "peer-wildcard",
      binding: 3,
    });
    expect(resolveRoute(message({ senderId: "222" }), config).matchedBy).not.toBe("peer-wildcard");
    expect(resolveRoute(message({ kind: "channel", chatId: "-300" }), config).matchedBy).not.toBe("peer-wildcard");
  });

  it("account beats channel; channel accepts accountId '*' or absent, first entry wins", () => {
    expect(resolveRoute(message({ senderId: "222", accountId: "work" }), config)).toMatchObject({
      agentId: "work",
      matchedBy: "account",
      binding: 2,
    });
    expect(resolveRoute(message({ senderId: "222" }), config)).toMatchObject({ agentId: "chan", matchedBy: "channel", binding: 0 });
    const starFirst = { agents, bindings: [config.bindings[1], config.bindings[0]] };
    expect(resolveRoute(message({ senderId: "222" }), starFirst)).toMatchObject({ agentId: "any", binding: 0 });
  });

  it("every field must match: a peer binding for another account or channel does not apply", () => {
    const scoped = {
      agents,
      bindings: [
        { agentId: "ops", match: { channel: "telegram", accountId: "work", peer: { kind: "direct", id: "111" } } },
        { agentId: "fam", match: { channel: "matrix", peer: { kind: "direct", id: "111" } } },
      ],
    };
    expect(resolveRoute(message({ senderId: "111" }), scoped).matchedBy).toBe("default");
    expect(resolveRoute(message({ senderId: "111", accountId: "WORK" }), scoped)).toMatchObject({ agentId: "ops", matchedBy: "peer" });
  });

  it("falls back to the default agent: default:true, else the first entry, else main", () => {
    expect(
      resolveRoute(message({ channel: "matrix", senderId: "@a:hs" }), {
        agents: { entries: { a: {}, b: { default: true } } },
        channels: { matrix: { allowFrom: ["@a:hs"] } },
      }),
    ).toEqual({
      agentId: "b",
      sessionKey: "agent:b:main",
      matchedBy: "default",
      peerId: "@a:hs",
    });
    expect(resolveRoute(message(), { agents: { entries: { first: {}, second: {} } } }).agentId).toBe("first");
    expect(resolveRoute(message(), {}).agentId).toBe("main");
  });

  it("skips unusable bindings (other types, no channel)", () => {
    const odd = { bindings: [{ type: "acp", agentId: "ops", match: { channel: "telegram" } }, { agentId: "ops", match: {} }, null] };
    expect(resolveRoute(message(), odd).matchedBy).toBe("default");
  });
});

describe("resolveRoute: session keys", () => {
  it("DMs follow session.dmScope (default main) with the normalized sender as peer", () => {
    const dm = message({ senderId: "tg:4242" });
    const owner = { channels: { telegram: { allowFrom: ["4242"] } } };
    expect(resolveRoute(dm, owner).sessionKey).toBe("agent:main:main");
    expect(resolveRoute(dm, { session: { dmScope: "per-peer" } }).sessionKey).toBe("agent:main:direct:4242");
    expect(resolveRoute(dm, { session: { dmScope: "per-channel-peer" } }).sessionKey).toBe("agent:main:telegram:direct:4242");
    expect(resolveRoute({ ...dm, accountId: "Work" }, { session: { dmScope: "per-account-channel-peer" } }).sessionKey).toBe(
      "agent:main:telegram:work:direct:4242",
    );
    expect(resolveRoute(dm, { ...owner, session: { mainKey: "home" } }).sessionKey).toBe("agent:main:home");
  });

  it("the main session is the owner's: anyone not listed in allowFrom gets a session of their own", () => {
    const config = { channels: { telegram: { dmPolicy: "pairing", allowFrom: ["4242"] } } };
    expect(resolveRoute(message({ senderId: "4242" }), config).sessionKey).toBe("agent:main:main");
    // Approved by pairing, or let in by "open" / "*": never the owner's session, never each other's.
    expect(resolveRoute(message({ senderId: "777" }), config).sessionKey).toBe("agent:main:telegram:direct:777");
    expect(resolveRoute(message({ senderId: "778" }), config).sessionKey).toBe("agent:main:telegram:direct:778");
    const open = { channels: { telegram: { dmPolicy: "open", allowFrom: ["*"] } } };
    expect(resolveRoute(message({ senderId: "777" }), open).sessionKey).toBe("agent:main:telegram:direct:777");
    // A scope other than main is kept as configured.
    expect(resolveRoute(message({ senderId: "777" }), { ...config, session: { dmScope: "per-peer" } }).sessionKey).toBe(
      "agent:main:direct:777",
    );
  });

  it("a binding's session.dmScope / groupScope overrides the global one", () => {
    const config = {
      session: { dmScope: "main", groupScope: "per-group" },
      channels: { matrix: { allowFrom: ["@a:hs"] } },
      bindings: [
        { agentId: "main", match: { channel: "telegram", peer: { kind: "direct", id: "*" } }, session: { dmScope: "per-peer" } },
        { agentId: "main", match: { channel: "telegram", peer: { kind: "group", id: "*" } }, session: { groupScope: "main" } },
      ],
    };
    expect(resolveRoute(message({ senderId: "5" }), config).sessionKey).toBe("agent:main:direct:5");
    expect(resolveRoute(message({ kind: "group", chatId: "-100" }), config).sessionKey).toBe("agent:main:main");
    expect(resolveRoute(message({ channel: "matrix", senderId: "@a:hs" }), config).sessionKey).toBe("agent:main:main");
  });

  it("groups follow session.groupScope (default per-group); channels keep their kind", () => {
    expect(resolveRoute(message({ kind: "group", chatId: "-100" }), {}).sessionKey).toBe("agent:main:telegram:group:-100");
    expect(resolveRoute(message({ kind: "channel", chatId: "-300" }), {}).sessionKey).toBe("agent:main:telegram:channel:-300");
    expect(resolveRoute(message({ kind: "group", chatId: "-100" }), { session: { groupScope: "main" } }).sessionKey).toBe(
      "agent:main:main",
    );
  });

  it("Telegram forum topics add :topic:<n>; threads elsewhere add :thread:<id>, DMs too", () => {
    expect(resolveRoute(message({ kind: "group", chatId: "-100", threadId: "7" }), {}).sessionKey).toBe(
      "agent:main:telegram:group:-100:topic:7",
    );
    expect(
      resolveRoute(message({ channel: "matrix", kind: "group", chatId: "!R:hs", threadId: "$Ev", senderId: "@a:hs" }), {}).sessionKey,
    ).toBe("agent:main:matrix:group:!r:hs:thread:$ev");
    expect(resolveRoute(message({ senderId: "5", threadId: "3" }), { session: { dmScope: "per-peer" } }).sessionKey).toBe(
      "agent:main:direct:5:thread:3",
    );
  });

  it("applies session.identityLinks for non-main DM scopes and uses the bound agent", () => {
    const config = {
      agents: { entries: { main: {}, ops: {} } },
      session: { dmScope: "per-peer", identityLinks: { alice: ["telegram:4242", "matrix:@alice:hs"] } },
      bindings: [{ agentId: "ops", match: { channel: "matrix" } }],
    };
    expect(resolveRoute(message({ senderId: "4242" }), config).sessionKey).toBe("agent:main:direct:alice");
    expect(resolveRoute(message({ channel: "matrix", senderId: "@Alice:hs" }), config).sessionKey).toBe("agent:ops:direct:alice");
  });
});

describe("forum topic agents", () => {
  it("a topic's agentId routes it unless an exact peer binding says otherwise", () => {
    const config = {
      agents: { entries: { main: { default: true }, research: {} } },
      channels: { telegram: { groups: { "-100": { topics: { "7": { agentId: "research" } } } } } },
    };
    expect(resolveRoute(message({ channel: "telegram", kind: "group", chatId: "-100", threadId: "7" }), config)).toMatchObject({
      agentId: "research",
      matchedBy: "topic",
    });
    expect(resolveRoute(message({ channel: "telegram", kind: "group", chatId: "-100", threadId: "8" }), config)).toMatchObject({
      agentId: "main",
    });
  });
});
