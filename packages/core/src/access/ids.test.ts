import type { ChannelIdRules } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import { listAllowsSender, normalizeChatId, normalizeSenderId, normalizeSenderList } from "./index.js";

// Rules as a plugin declares them in its config entry: a phone-number channel where every
// spelling of a number is one sender, and a channel with an extra short prefix.
const phoneRules: ChannelIdRules = {
  prefixes: ["ph"],
  sender: (id) => {
    const local = id.includes("@") ? id.slice(0, id.indexOf("@")) : id;
    const digits = local.replace(/\D/g, "");
    return digits === "" ? id.toLowerCase() : `+${digits}`;
  },
};
const phone = { channel: "phonechat", rules: phoneRules };
const bot = { channel: "botchat", rules: { prefixes: ["bc"] } };

describe("normalizeSenderId", () => {
  it("strips the channel's own prefix and its declared ones, and compares numbers as strings", () => {
    expect(normalizeSenderId(bot, "botchat:12345")).toBe("12345");
    expect(normalizeSenderId(bot, "BC:12345")).toBe("12345");
    expect(normalizeSenderId(bot, 12345)).toBe("12345");
    expect(normalizeSenderId({ channel: "BotChat", rules: bot.rules }, " bc:999 ")).toBe("999");
  });

  it("applies the channel's declared sender rule: every spelling of a number is one sender", () => {
    for (const spelling of ["+1 (555) 010-0123", "15550100123", "15550100123@s.example.net", "phonechat:+15550100123", "ph:15550100123"]) {
      expect(normalizeSenderId(phone, spelling)).toBe("+15550100123");
    }
    // Chats have no declared rule here: the default (lowercase) applies.
    expect(normalizeChatId(phone, "120363@G.US")).toBe("120363@g.us");
  });

  it("without declared rules lowercases and strips the channel prefix; keeps * and drops empty entries", () => {
    expect(normalizeSenderId({ channel: "loopback" }, "loopback:Bob")).toBe("bob");
    expect(normalizeChatId({ channel: "loopback" }, "!Room:HS")).toBe("!room:hs");
    expect(normalizeSenderId(bot, "*")).toBe("*");
    expect(normalizeSenderList(bot, ["bc:1", "", 2, null, "*"])).toEqual(["1", "2", "*"]);
  });
});

describe("listAllowsSender", () => {
  it("matches the normalized id or the wildcard", () => {
    expect(listAllowsSender(bot, ["123"], "bc:123")).toBe(true);
    expect(listAllowsSender(bot, ["123"], "124")).toBe(false);
    expect(listAllowsSender(bot, ["*"], "anyone")).toBe(true);
    expect(listAllowsSender(bot, ["123"], "")).toBe(false);
    expect(listAllowsSender(phone, ["+15550100123"], "15550100123@s.example.net")).toBe(true);
  });
});
