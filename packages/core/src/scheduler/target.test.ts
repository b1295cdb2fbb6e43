import { describe, expect, it } from "vitest";
import { formatTarget, parseTarget } from "./target.js";

describe("parseTarget", () => {
  it("reads last, none and channel:account:chat (colons allowed in the chat id)", () => {
    expect(parseTarget(" Last ")).toBe("last");
    expect(parseTarget("none")).toBe("none");
    expect(parseTarget(undefined)).toBe("none");
    expect(parseTarget("", "last")).toBe("last");
    expect(parseTarget("Telegram:default:12345")).toEqual({ channel: "telegram", accountId: "default", chatId: "12345" });
    expect(parseTarget("matrix:work:!room:example.org")).toEqual({ channel: "matrix", accountId: "work", chatId: "!room:example.org" });
    expect(formatTarget(parseTarget("matrix:work:!room:example.org"))).toBe("matrix:work:!room:example.org");
  });

  it("refuses anything else with the expected format", () => {
    for (const bad of ["telegram", "telegram:12345", "telegram::1", ":a:b", "telegram:default:"]) {
      expect(() => parseTarget(bad), bad).toThrow(/"last", "none" or "<channel>:<accountId>:<chatId>"/);
    }
  });
});
