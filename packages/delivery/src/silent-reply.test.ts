import { describe, expect, it } from "vitest";
import { createSilentReplyGuard, isSilentReply, SILENT_REPLY_TOKEN } from "./silent-reply.js";

describe("isSilentReply", () => {
  it("accepts the token alone, trimmed, in any case, in simple wrapping", () => {
    for (const text of [
      "NO_REPLY",
      "  NO_REPLY\n",
      "no_reply",
      "**NO_REPLY**",
      "`NO_REPLY`",
      "_NO_REPLY_",
      "**`NO_REPLY`**",
      "~~NO_REPLY~~",
    ]) {
      expect(isSilentReply(text), text).toBe(true);
    }
    expect(SILENT_REPLY_TOKEN).toBe("NO_REPLY");
  });

  it("rejects anything else", () => {
    for (const text of ["", "NO_REPLY, sorry", "I will NO_REPLY", "NO REPLY", "**NO_REPLY*", "NO_REPLY.", undefined, null]) {
      expect(isSilentReply(text), String(text)).toBe(false);
    }
  });
});

describe("silent reply guard", () => {
  function feed(deltas: string[]) {
    const guard = createSilentReplyGuard();
    const shown = deltas.map((d) => guard.push(d));
    return { shown, end: guard.end() };
  }

  it("holds NO_REPLY back completely", () => {
    const { shown, end } = feed(["NO", "_RE", "PLY", "\n"]);
    expect(shown.join("")).toBe("");
    expect(end).toEqual({ silent: true, text: "" });
  });

  it("holds a wrapped token back too", () => {
    const { shown, end } = feed(["**", "NO_", "REPLY", "**"]);
    expect(shown.join("")).toBe("");
    expect(end.silent).toBe(true);
  });

  it("releases the held start as soon as the reply cannot be the token", () => {
    const { shown, end } = feed(["NO", " problem", ", here you go"]);
    expect(shown).toEqual(["", "NO problem", ", here you go"]);
    expect(end).toEqual({ silent: false, text: "" });
  });

  it("passes ordinary text straight through", () => {
    expect(feed(["Hello", " world"]).shown).toEqual(["Hello", " world"]);
  });

  it("releases text that only starts with the token", () => {
    const { shown } = feed(["NO_REPLY", " needed"]);
    expect(shown).toEqual(["", "NO_REPLY needed"]);
  });

  it("returns a short held reply at the end when it was not the token", () => {
    const { shown, end } = feed(["NO"]);
    expect(shown).toEqual([""]);
    expect(end).toEqual({ silent: false, text: "NO" });
  });

  it("starts over after end()", () => {
    const guard = createSilentReplyGuard();
    guard.push("Hi");
    guard.end();
    expect(guard.push("NO_")).toBe("");
    expect(guard.holding).toBe(true);
    expect(guard.end()).toEqual({ silent: false, text: "NO_" });
  });
});
