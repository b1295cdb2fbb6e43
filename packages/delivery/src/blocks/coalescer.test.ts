import { describe, expect, it } from "vitest";
import { createBlockCoalescer, joinerForBreakPreference, type BlockCoalescerOptions, type CoalescerTimers } from "./coalescer.js";

/** A manual clock: timers fire only inside advance(). */
function fakeClock() {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: CoalescerTimers = {
    setTimeout(callback, ms) {
      const id = ++nextId;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    get pending() {
      return pending.size;
    },
    advance(ms: number) {
      const target = now + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of pending) if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = target;
    },
  };
}

function setup(overrides: Partial<BlockCoalescerOptions> = {}) {
  const clock = fakeClock();
  const sent: string[] = [];
  const coalescer = createBlockCoalescer({
    minChars: 10,
    maxChars: 40,
    idleMs: 1000,
    joiner: "\n\n",
    onFlush: (text) => sent.push(text),
    timers: clock.timers,
    ...overrides,
  });
  return { clock, sent, coalescer };
}

describe("block coalescer", () => {
  it("derives the joiner from the break preference", () => {
    expect(joinerForBreakPreference("paragraph")).toBe("\n\n");
    expect(joinerForBreakPreference("newline")).toBe("\n");
    expect(joinerForBreakPreference("sentence")).toBe(" ");
  });

  it("merges blocks and sends them after idleMs without a new block", () => {
    const { clock, sent, coalescer } = setup();
    coalescer.enqueue("First block.");
    clock.advance(600);
    coalescer.enqueue("Second.");
    clock.advance(600); // 1200 ms after the first block, 600 after the second: still waiting
    expect(sent).toEqual([]);
    expect(coalescer.hasBuffered).toBe(true);
    clock.advance(400);
    expect(sent).toEqual(["First block.\n\nSecond."]);
    expect(coalescer.hasBuffered).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it("holds text below minChars past the idle time until more arrives or a forced flush", () => {
    const { clock, sent, coalescer } = setup();
    coalescer.enqueue("tiny");
    clock.advance(5000);
    expect(sent).toEqual([]);
    expect(clock.pending).toBe(1); // re-armed
    coalescer.flush({ force: false });
    expect(sent).toEqual([]);
    coalescer.flush();
    expect(sent).toEqual(["tiny"]);
    expect(clock.pending).toBe(0);
  });

  it("never merges past maxChars: the buffer goes first", () => {
    const { sent, coalescer } = setup();
    coalescer.enqueue("a".repeat(25));
    coalescer.enqueue("b".repeat(20)); // 25 + 2 + 20 > 40
    expect(sent).toEqual(["a".repeat(25)]);
    coalescer.flush();
    expect(sent).toEqual(["a".repeat(25), "b".repeat(20)]);
  });

  it("sends at once when the buffer reaches maxChars, and a block of maxChars or more directly", () => {
    const { sent, coalescer } = setup();
    coalescer.enqueue("a".repeat(19));
    coalescer.enqueue("b".repeat(19)); // 19 + 2 + 19 = 40
    expect(sent).toEqual([`${"a".repeat(19)}\n\n${"b".repeat(19)}`]);
    coalescer.enqueue("short");
    coalescer.enqueue("c".repeat(50));
    expect(sent.slice(1)).toEqual(["short", "c".repeat(50)]);
  });

  it("a whitespace joiner never doubles separators", () => {
    const { sent, coalescer } = setup({ joiner: " ", maxChars: 100 });
    coalescer.enqueue("One sentence.  \n");
    coalescer.enqueue("Two.");
    coalescer.flush();
    expect(sent).toEqual(["One sentence. Two."]);
  });

  it("blocks with another merge key are not merged", () => {
    const { sent, coalescer } = setup({ maxChars: 100 });
    coalescer.enqueue("to A", { mergeKey: "a" });
    coalescer.enqueue("also A", { mergeKey: "a" });
    coalescer.enqueue("to B", { mergeKey: "b" });
    coalescer.flush();
    expect(sent).toEqual(["to A\n\nalso A", "to B"]);
  });

  it("ignores blank blocks", () => {
    const { sent, coalescer } = setup();
    coalescer.enqueue("  \n");
    expect(coalescer.hasBuffered).toBe(false);
    coalescer.flush();
    expect(sent).toEqual([]);
  });

  it("stop drops the buffer and the timer", () => {
    const { clock, sent, coalescer } = setup();
    coalescer.enqueue("pending text here");
    coalescer.stop();
    clock.advance(5000);
    coalescer.enqueue("after stop");
    coalescer.flush();
    expect(sent).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});
