import { describe, expect, it } from "vitest";
import { isQueueCommand, parseDurationMs, parseQueueCommand } from "./command.js";

describe("parseQueueCommand", () => {
  it("ignores text that is not a /queue command", () => {
    expect(parseQueueCommand("hello /queue")).toBeUndefined();
    expect(parseQueueCommand("/queued things")).toBeUndefined();
    expect(isQueueCommand("/queue@my_bot collect")).toBe(true);
  });

  it("shows, resets, and sets", () => {
    expect(parseQueueCommand("/queue")).toEqual({ kind: "show" });
    expect(parseQueueCommand("  /QUEUE  ")).toEqual({ kind: "show" });
    for (const word of ["reset", "default", "clear"]) expect(parseQueueCommand(`/queue ${word}`)).toEqual({ kind: "reset" });
    expect(parseQueueCommand("/queue collect debounce:0.5s cap:25 drop:summarize")).toEqual({
      kind: "set",
      override: { mode: "collect", debounceMs: 500, cap: 25, drop: "summarize" },
    });
    expect(parseQueueCommand("/queue: Followup")).toEqual({ kind: "set", override: { mode: "followup" } });
    expect(parseQueueCommand("/queue cap=3 drop=oldest")).toEqual({ kind: "set", override: { cap: 3, drop: "old" } });
    expect(parseQueueCommand("/queue steer+backlog")).toEqual({ kind: "set", override: { mode: "steer+backlog" } });
    expect(parseQueueCommand("/queue@bot queue")).toEqual({ kind: "set", override: { mode: "queue" } });
  });

  it("reports every problem", () => {
    expect(parseQueueCommand("/queue sideways cap:0 drop:all debounce:soon colour:red")).toEqual({
      kind: "invalid",
      problems: [
        '"sideways" is not a queue mode',
        'cap "0" must be a whole number of at least 1',
        'drop "all" must be summarize, old or new',
        'debounce "soon" is not a duration (try 500ms or 0.5s)',
        '"colour" is not a queue option (debounce, cap, drop)',
      ],
    });
  });
});

describe("parseDurationMs", () => {
  it("reads ms (the default unit), s and m", () => {
    expect(parseDurationMs("500")).toBe(500);
    expect(parseDurationMs("250ms")).toBe(250);
    expect(parseDurationMs("0.5s")).toBe(500);
    expect(parseDurationMs("1m")).toBe(60_000);
    expect(parseDurationMs("-1s")).toBeUndefined();
    expect(parseDurationMs("1h")).toBeUndefined();
  });
});
