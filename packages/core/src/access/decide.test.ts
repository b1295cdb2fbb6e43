import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InboundMessage } from "@openclaw/plugin-sdk";
import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStateDb, type StateDb } from "../state/index.js";
import {
  checkOutboundAccess,
  createPairingStore,
  decideAccess,
  PAIRING_CODE_TTL_MS,
  type AccessConfigInput,
  type AccessDecision,
  type PairingGate,
  type PairingStore,
} from "./index.js";

let stateDir: string;
let db: StateDb;
let store: PairingStore;
const T0 = Date.UTC(2026, 0, 1);

beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-access-"));
  db = openStateDb(stateDir);
  store = createPairingStore(db);
});
afterEach(() => {
  db.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function dm(senderId: string, extra: Partial<InboundMessage> = {}): InboundMessage {
  return {
    channel: "telegram",
    accountId: "default",
    messageId: "m1",
    chat: { kind: "direct", id: senderId },
    sender: { id: senderId, name: `User ${senderId}` },
    text: "hello",
    mentionsBot: false,
    receivedAt: T0,
    ...extra,
  };
}

function inGroup(
  chatId: string,
  senderId: string,
  options: { mention?: boolean; threadId?: string; channel?: string } = {},
): InboundMessage {
  return {
    channel: options.channel ?? "telegram",
    accountId: "default",
    messageId: "m2",
    chat: { kind: "group", id: chatId, ...(options.threadId ? { threadId: options.threadId } : {}) },
    sender: { id: senderId },
    text: "hi all",
    mentionsBot: options.mention ?? true,
    receivedAt: T0,
  };
}

// Id rules as channel plugins declare them in their config entries (core has none of its own).
const RULES: Record<string, ChannelIdRules> = {
  telegram: { prefixes: ["tg"] },
  whatsapp: {
    sender: (id) => {
      const local = id.includes("@") ? id.slice(0, id.indexOf("@")) : id;
      const digits = local.replace(/\D/g, "");
      return digits === "" ? id.toLowerCase() : `+${digits}`;
    },
  },
};
const account = (config: AccessConfigInput, channel = "telegram", accountId = "default") => ({
  channel,
  accountId,
  config,
  ids: RULES[channel],
});

/** A store that fails the test if the gate touches it. */
const untouchable: PairingGate = {
  isApproved: () => {
    throw new Error("the pairing store must not be consulted");
  },
  issue: () => {
    throw new Error("the pairing store must not be consulted");
  },
};

function expectDrop(decision: AccessDecision, reason: string): void {
  expect(decision.action).toBe("drop");
  if (decision.action === "drop") expect(decision.reason).toBe(reason);
}

function expectPair(decision: AccessDecision): Extract<AccessDecision, { action: "pair" }> {
  if (decision.action !== "pair") throw new Error(`expected pair, got ${JSON.stringify(decision)}`);
  return decision;
}

describe("DMs with dmPolicy pairing (the default)", () => {
  it("lets allowFrom senders through without touching the store, with prefixes normalized", () => {
    const decision = decideAccess(dm("12345"), account({ allowFrom: ["tg:12345"] }), untouchable, T0);
    expect(decision).toEqual({ action: "allow", reason: "allowFrom", chatKind: "direct" });
    expect(decideAccess(dm("777"), account({ allowFrom: [777] }), untouchable, T0).action).toBe("allow");
  });

  it("gives a stranger a code and a reply naming the approve command; the message does not pass", () => {
    const decision = expectPair(decideAccess(dm("999"), account({}), store, T0));
    expect(decision.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(decision.isNew).toBe(true);
    expect(decision.expiresAt).toBe(T0 + PAIRING_CODE_TTL_MS);
    expect(decision.replyText).toContain(decision.code);
    expect(decision.replyText).toContain(`openclaw pairing approve telegram ${decision.code}`);
    expect(store.list({ now: T0 }).pending[0]).toMatchObject({ senderId: "999", senderName: "User 999", code: decision.code });
  });

  it("repeats the same code to the same stranger within the hour", () => {
    const first = expectPair(decideAccess(dm("999"), account({}), store, T0));
    const second = expectPair(decideAccess(dm("999"), account({}), store, T0 + 30 * 60_000));
    expect(second.code).toBe(first.code);
    expect(second.isNew).toBe(false);
  });

  it("drops a 4th stranger with reason 'too many pending'", () => {
    for (const id of ["1", "2", "3"]) expectPair(decideAccess(dm(id), account({}), store, T0));
    expectDrop(decideAccess(dm("4"), account({}), store, T0), "too many pending");
  });

  it("lets an approved sender through on the next message, on that account only", () => {
    const { code } = expectPair(decideAccess(dm("999"), account({}), store, T0));
    store.approve("telegram", code, { now: T0 + 1 });
    expect(decideAccess(dm("999"), account({}), store, T0 + 2)).toEqual({ action: "allow", reason: "paired", chatKind: "direct" });
    expect(decideAccess(dm("999"), account({}, "telegram", "work"), store, T0 + 2).action).toBe("pair");
  });
});

describe("DMs with the other policies", () => {
  it("allowlist: only allowFrom, never approved pairings", () => {
    const { code } = expectPair(decideAccess(dm("999"), account({}), store, T0));
    store.approve("telegram", code, { now: T0 });
    const config = { dmPolicy: "allowlist", allowFrom: ["123"] } as const;
    expect(decideAccess(dm("123"), account(config), store, T0).action).toBe("allow");
    expectDrop(decideAccess(dm("999"), account(config), store, T0), "sender not allowed");
    expect(store.list({ now: T0 }).pending).toEqual([]);
  });

  it("open: anyone; disabled: nobody (not even allowFrom)", () => {
    expect(decideAccess(dm("5"), account({ dmPolicy: "open", allowFrom: ["*"] }), untouchable, T0)).toEqual({
      action: "allow",
      reason: "open",
      chatKind: "direct",
    });
    expectDrop(decideAccess(dm("5"), account({ dmPolicy: "disabled", allowFrom: ["5"] }), untouchable, T0), "dms disabled");
  });

  it('a "*" in allowFrom lets everyone through under pairing too', () => {
    expect(decideAccess(dm("5"), account({ allowFrom: ["*"] }), untouchable, T0).action).toBe("allow");
  });
});

describe("groups", () => {
  it("groupPolicy allowlist (the default) is fail-closed: the group must be listed or '*' present", () => {
    expectDrop(decideAccess(inGroup("-100", "1"), account({}), untouchable, T0), "group not allowed");
    expectDrop(decideAccess(inGroup("-100", "1"), account({ groups: { "-200": {} } }), untouchable, T0), "group not allowed");
    expect(decideAccess(inGroup("-100", "1"), account({ groups: { "-100": {} } }), untouchable, T0)).toEqual({
      action: "allow",
      reason: "group",
      chatKind: "group",
    });
    expect(decideAccess(inGroup("-100", "1"), account({ groups: { "*": {} } }), untouchable, T0).action).toBe("allow");
    expect(decideAccess(inGroup("-100", "1"), account({ groups: { "tg:-100": {} } }), untouchable, T0).action).toBe("allow");
  });

  it("groupPolicy open admits unlisted groups; disabled drops every group", () => {
    expect(decideAccess(inGroup("-100", "1"), account({ groupPolicy: "open" }), untouchable, T0).action).toBe("allow");
    expectDrop(
      decideAccess(inGroup("-100", "1"), account({ groupPolicy: "disabled", groups: { "-100": {} } }), untouchable, T0),
      "groups disabled",
    );
  });

  it("a group with enabled: false is dropped, also when '*' is enabled; '*' enabled:false covers unlisted groups", () => {
    const config = { groups: { "*": {}, "-100": { enabled: false } } };
    expectDrop(decideAccess(inGroup("-100", "1"), account(config), untouchable, T0), "group disabled");
    expect(decideAccess(inGroup("-200", "1"), account(config), untouchable, T0).action).toBe("allow");
    expectDrop(
      decideAccess(inGroup("-200", "1"), account({ groupPolicy: "open", groups: { "*": { enabled: false } } }), untouchable, T0),
      "group disabled",
    );
  });

  it("checks the sender against the group's allowFrom, else groupAllowFrom, else allowFrom; never the pairing store", () => {
    const groups = { "-100": { allowFrom: ["10"] }, "-200": {} };
    const config = { allowFrom: ["30"], groupAllowFrom: ["20"], groups };
    expect(decideAccess(inGroup("-100", "10"), account(config), untouchable, T0).action).toBe("allow");
    expectDrop(decideAccess(inGroup("-100", "20"), account(config), untouchable, T0), "sender not allowed in group");
    expect(decideAccess(inGroup("-200", "20"), account(config), untouchable, T0).action).toBe("allow");
    expectDrop(decideAccess(inGroup("-200", "30"), account(config), untouchable, T0), "sender not allowed in group");
    const noGroupList = { allowFrom: ["30"], groups };
    expect(decideAccess(inGroup("-200", "30"), account(noGroupList), untouchable, T0).action).toBe("allow");
    expectDrop(decideAccess(inGroup("-200", "31"), account(noGroupList), untouchable, T0), "sender not allowed in group");
  });

  it("with no sender list anywhere, anyone in an admitted group passes; an approved pairing does not widen a list", () => {
    expect(decideAccess(inGroup("-100", "anyone"), account({ groups: { "-100": {} } }), untouchable, T0).action).toBe("allow");
    const { code } = expectPair(decideAccess(dm("999"), account({}), store, T0));
    store.approve("telegram", code, { now: T0 });
    expectDrop(
      decideAccess(inGroup("-100", "999"), account({ allowFrom: ["1"], groups: { "-100": {} } }), store, T0),
      "sender not allowed in group",
    );
  });

  it("requireMention defaults to true, comes from the group entry, else the '*' entry", () => {
    expectDrop(
      decideAccess(inGroup("-100", "1", { mention: false }), account({ groups: { "-100": {} } }), untouchable, T0),
      "not mentioned",
    );
    expect(decideAccess(inGroup("-100", "1", { mention: true }), account({ groups: { "-100": {} } }), untouchable, T0).action).toBe(
      "allow",
    );
    const quietStar = { groups: { "*": { requireMention: false }, "-100": {}, "-300": { requireMention: true } } };
    expect(decideAccess(inGroup("-100", "1", { mention: false }), account(quietStar), untouchable, T0).action).toBe("allow");
    expectDrop(decideAccess(inGroup("-300", "1", { mention: false }), account(quietStar), untouchable, T0), "not mentioned");
    expect(decideAccess(inGroup("-200", "1", { mention: false }), account(quietStar), untouchable, T0).action).toBe("allow");
  });

  it("forum topics inherit the group's settings and may override them", () => {
    const config = { groups: { "-100": { requireMention: true, topics: { "7": { requireMention: false }, "*": { allowFrom: ["1"] } } } } };
    expect(decideAccess(inGroup("-100", "1", { mention: false, threadId: "7" }), account(config), untouchable, T0).action).toBe("allow");
    expectDrop(decideAccess(inGroup("-100", "2", { threadId: "8" }), account(config), untouchable, T0), "sender not allowed in group");
    expectDrop(decideAccess(inGroup("-100", "1", { mention: false, threadId: "8" }), account(config), untouchable, T0), "not mentioned");
  });

  it("a group keyed by one of the chat's aliases applies (groupPolicy, requireMention, allowFrom); its id wins over an alias", () => {
    const aliased = (aliases: string[], mention: boolean, sender = "1"): InboundMessage => {
      const message = inGroup("!room:example.org", sender, { mention });
      return { ...message, chat: { ...message.chat, aliases } };
    };
    const config = { groups: { "#ops:example.org": { requireMention: false, allowFrom: ["1"] } } };
    expect(decideAccess(aliased(["#ops:example.org"], false), account(config), untouchable, T0).action).toBe("allow");
    expectDrop(decideAccess(aliased(["#ops:example.org"], false, "2"), account(config), untouchable, T0), "sender not allowed in group");
    expectDrop(decideAccess(aliased([], false), account(config), untouchable, T0), "group not allowed");
    expectDrop(decideAccess(aliased(["#other:example.org"], false), account(config), untouchable, T0), "group not allowed");
    const both = { groups: { "!room:example.org": { requireMention: true }, "#ops:example.org": { requireMention: false } } };
    expectDrop(decideAccess(aliased(["#ops:example.org"], false), account(both), untouchable, T0), "not mentioned");
  });

  it("broadcast channels follow the group rules", () => {
    const message: InboundMessage = { ...inGroup("-500", "1"), chat: { kind: "channel", id: "-500" } };
    expectDrop(decideAccess(message, account({}), untouchable, T0), "group not allowed");
    expect(decideAccess(message, account({ groups: { "-500": {} } }), untouchable, T0).action).toBe("allow");
  });

  it("normalizes senders in group lists by the channel's declared rules (every spelling of a phone number)", () => {
    const config = { groupAllowFrom: ["+1 555 010 0123"], groups: { "120363@g.us": { requireMention: false } } };
    const message = inGroup("120363@g.us", "15550100123@s.whatsapp.net", { channel: "whatsapp", mention: false });
    expect(decideAccess(message, account(config, "whatsapp"), untouchable, T0).action).toBe("allow");
  });
});

describe("checkOutboundAccess", () => {
  it("allows DM targets in allowFrom, approved under pairing, or any under open", () => {
    const direct = (id: string) => ({ kind: "direct" as const, id });
    expect(checkOutboundAccess(direct("1"), account({ allowFrom: ["1"] }), untouchable)).toEqual({ ok: true });
    expect(checkOutboundAccess(direct("2"), account({ dmPolicy: "open", allowFrom: ["*"] }), untouchable)).toEqual({ ok: true });
    const refused = checkOutboundAccess(direct("2"), account({ allowFrom: ["1"] }), store);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.detail).toContain("openclaw pairing approve");
    const { code } = expectPair(decideAccess(dm("2"), account({}), store, T0));
    store.approve("telegram", code, { now: T0 });
    expect(checkOutboundAccess(direct("2"), account({ allowFrom: ["1"] }), store)).toEqual({ ok: true });
    expect(checkOutboundAccess(direct("2"), account({ dmPolicy: "allowlist", allowFrom: ["1"] }), store).ok).toBe(false);
    expect(checkOutboundAccess(direct("1"), account({ dmPolicy: "disabled", allowFrom: ["1"] }), store).ok).toBe(false);
  });

  it("allows group targets by groupPolicy and groups, ignoring mentions and sender lists", () => {
    const group = (id: string) => ({ kind: "group" as const, id });
    expect(checkOutboundAccess(group("-100"), account({ groups: { "-100": { allowFrom: ["1"] } } }), untouchable)).toEqual({ ok: true });
    expect(checkOutboundAccess(group("-100"), account({}), untouchable).ok).toBe(false);
    expect(checkOutboundAccess(group("-100"), account({ groupPolicy: "open" }), untouchable)).toEqual({ ok: true });
    expect(checkOutboundAccess(group("-100"), account({ groupPolicy: "disabled", groups: { "*": {} } }), untouchable).ok).toBe(false);
    expect(checkOutboundAccess(group("-100"), account({ groups: { "*": {}, "-100": { enabled: false } } }), untouchable).ok).toBe(false);
  });
});
