import { describe, expect, it } from "vitest";
import { commandWord, parseCommand } from "./parse.js";

const dm = { chatKind: "direct" as const, mentionsBot: false };
const group = (mentionsBot: boolean) => ({ chatKind: "group" as const, mentionsBot });

describe("parseCommand", () => {
  it("reads the name (lowercased) and the arguments", () => {
    expect(parseCommand("/status", dm)).toEqual({ name: "status", args: "" });
    expect(parseCommand("  /Model  openai/gpt-4o  ", dm)).toEqual({ name: "model", args: "openai/gpt-4o" });
    expect(parseCommand("/context detail", dm)).toEqual({ name: "context", args: "detail" });
    expect(parseCommand("/my-skill do the thing\nplease", dm)).toEqual({ name: "my-skill", args: "do the thing\nplease" });
  });

  it("is not a command without a leading slash word", () => {
    expect(parseCommand("status", dm)).toBeUndefined();
    expect(parseCommand("what does /status do?", dm)).toBeUndefined();
    expect(parseCommand("/", dm)).toBeUndefined();
    expect(parseCommand("/statusbar", dm)?.name).toBe("statusbar");
    expect(parseCommand("/status:", dm)).toBeUndefined();
  });

  it("takes /name@bot only when the platform says the bot was addressed", () => {
    expect(parseCommand("/status@my_bot", group(true))).toEqual({ name: "status", args: "" });
    expect(parseCommand("/model@my_bot local/llama", group(true))).toEqual({ name: "model", args: "local/llama" });
    // Addressed to another bot in the same group: not ours.
    expect(parseCommand("/status@other_bot", group(false))).toBeUndefined();
  });

  it("skips a leading mention of the bot in groups", () => {
    expect(parseCommand("@my_bot /status", group(true))).toEqual({ name: "status", args: "" });
    expect(parseCommand("<@U123> /context detail", group(true))).toEqual({ name: "context", args: "detail" });
    expect(parseCommand("@my_bot /status", group(false))).toBeUndefined();
    expect(parseCommand("@my_bot /status", dm)).toBeUndefined();
  });
});

describe("commandWord", () => {
  it("treats - and _ alike, case-insensitively", () => {
    expect(commandWord("Release-Notes")).toBe("release_notes");
    expect(commandWord("release_notes")).toBe("release_notes");
  });
});
