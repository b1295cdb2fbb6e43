import { describe, expect, it } from "vitest";
import { listAllowsSender, normalizeChatId, normalizeSenderId, normalizeSenderList } from "./index.js";

describe("normalizeSenderId", () => {
  it("strips telegram:/tg: prefixes and compares numbers as strings", () => {
    expect(normalizeSenderId("telegram", "telegram:12345")).toBe("12345");
    expect(normalizeSenderId("telegram", "TG:12345")).toBe("12345");
    expect(normalizeSenderId("telegram", 12345)).toBe("12345");
    expect(normalizeSenderId("Telegram", " tg:999 ")).toBe("999");
  });

  it("writes every spelling of a WhatsApp number as +digits", () => {
    for (const spelling of ["+1 (555) 010-0123", "15550100123", "15550100123@s.whatsapp.net", "whatsapp:+15550100123"]) {
      expect(normalizeSenderId("whatsapp", spelling)).toBe("+15550100123");
    }
    expect(normalizeChatId("whatsapp", "120363@G.US")).toBe("120363@g.us");
  });

  it("keeps Matrix ids whole (lowercased) and strips a matrix: prefix", () => {
    expect(normalizeSenderId("matrix", "@Alice:Example.org")).toBe("@alice:example.org");
    expect(normalizeSenderId("matrix", "matrix:@alice:example.org")).toBe("@alice:example.org");
    expect(normalizeChatId("matrix", "!Room:hs")).toBe("!room:hs");
  });

  it("lowercases other channels and strips their own prefix; keeps * and drops empty entries", () => {
    expect(normalizeSenderId("feishu", "ou_ABC")).toBe("ou_abc");
    expect(normalizeSenderId("loopback", "loopback:Bob")).toBe("bob");
    expect(normalizeSenderId("telegram", "*")).toBe("*");
    expect(normalizeSenderList("telegram", ["tg:1", "", 2, null, "*"])).toEqual(["1", "2", "*"]);
  });
});

describe("listAllowsSender", () => {
  it("matches the normalized id or the wildcard", () => {
    expect(listAllowsSender("telegram", ["123"], "tg:123")).toBe(true);
    expect(listAllowsSender("telegram", ["123"], "124")).toBe(false);
    expect(listAllowsSender("telegram", ["*"], "anyone")).toBe(true);
    expect(listAllowsSender("telegram", ["123"], "")).toBe(false);
  });
});
