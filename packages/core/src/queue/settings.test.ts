import { describe, expect, it } from "vitest";
import { describeQueueSettings, normalizeQueueMode, resolveQueueSettings } from "./settings.js";

describe("resolveQueueSettings", () => {
  it("applies the documented defaults", () => {
    expect(resolveQueueSettings(undefined)).toEqual({
      mode: "steer",
      backlog: false,
      modeSource: "default",
      debounceMs: 500,
      cap: 20,
      drop: "summarize",
    });
  });

  it("session override > byChannel > mode > steer, per field", () => {
    const config = {
      messages: {
        queue: {
          mode: "followup",
          byChannel: { Telegram: "collect" },
          debounceMs: 300,
          debounceMsByChannel: { telegram: 900 },
          cap: 5,
          drop: "new",
        },
      },
    };
    expect(resolveQueueSettings(config, { channel: "telegram" })).toMatchObject({
      mode: "collect",
      modeSource: "channel",
      debounceMs: 900,
      cap: 5,
      drop: "new",
    });
    expect(resolveQueueSettings(config, { channel: "matrix" })).toMatchObject({ mode: "followup", modeSource: "config", debounceMs: 300 });
    expect(resolveQueueSettings(config, { channel: "telegram", override: { mode: "interrupt", cap: 9 } })).toMatchObject({
      mode: "interrupt",
      modeSource: "session",
      debounceMs: 900,
      cap: 9,
      drop: "new",
    });
    expect(resolveQueueSettings(config, { override: { debounceMs: 0 } }).debounceMs).toBe(0);
  });

  it("ignores unknown modes and caps below 1, and maps legacy modes", () => {
    expect(resolveQueueSettings({ messages: { queue: { mode: "sideways", cap: 0 } } })).toMatchObject({
      mode: "steer",
      modeSource: "default",
      cap: 20,
    });
    expect(resolveQueueSettings({ messages: { queue: { mode: "queue" } } })).toMatchObject({ mode: "steer", backlog: false });
    expect(resolveQueueSettings({ messages: { queue: { mode: "steer-backlog" } } })).toMatchObject({ mode: "steer", backlog: true });
    expect(normalizeQueueMode("STEER+BACKLOG")).toEqual({ mode: "steer", backlog: true });
  });

  it("describes settings in one line", () => {
    expect(describeQueueSettings(resolveQueueSettings({ messages: { queue: { mode: "steer-backlog", debounceMs: 1500 } } }))).toBe(
      "Queue mode: steer-backlog (config default); debounce 1.5s, cap 20, drop summarize.",
    );
  });
});
