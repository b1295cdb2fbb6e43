// Timing and edge cases of the queue, with a scripted `run` and a manual clock (the real runtime is in test/queue/).
import { describe, expect, it } from "vitest";
import type { TurnRequest, TurnResult } from "../agent/index.js";
import { MessageQueue, type MessageQueueOptions, type QueueTimers, type SubmitOutcome } from "./index.js";

interface Call {
  request: TurnRequest;
  finish(text?: string): void;
  fail(error: Error): void;
}

/** A `run` whose turns finish when the test says so; an aborted turn ends at once with status "aborted". */
function scriptedRun() {
  const calls: Call[] = [];
  const run = (request: TurnRequest) =>
    new Promise<TurnResult>((resolve, reject) => {
      const result = (status: TurnResult["status"], text: string): TurnResult => ({
        runId: `run-${calls.length}`,
        status,
        agentId: "main",
        sessionKey: request.sessionKey ?? "",
        sessionId: "s",
        text,
        silent: false,
        usage: { inputTokens: 0, outputTokens: 0 },
      });
      request.signal?.addEventListener("abort", () => resolve(result("aborted", "")));
      calls.push({ request, finish: (text = `re: ${request.message}`) => resolve(result("ok", text)), fail: reject });
    });
  return { run, calls, messages: () => calls.map((c) => c.request.message) };
}

/** Queue timers on a clock the test moves by hand. */
function manualClock(start = 10_000) {
  let now = start;
  let pending: Array<{ due: number; fn: () => void }> = [];
  const timers: QueueTimers = {
    setTimeout: (fn, ms) => {
      const timer = { due: now + ms, fn };
      pending.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      pending = pending.filter((t) => t !== handle);
    },
  };
  return {
    now: () => now,
    timers,
    advance(ms: number) {
      now += ms;
      for (;;) {
        const next = pending.filter((t) => t.due <= now).sort((a, b) => a.due - b.due)[0];
        if (!next) return;
        pending = pending.filter((t) => t !== next);
        next.fn();
      }
    },
  };
}

/** Lets promise chains and the queue's own awaits settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function make(config: MessageQueueOptions["config"], extra: Partial<MessageQueueOptions> = {}) {
  const script = scriptedRun();
  const clock = manualClock();
  const q = new MessageQueue({ run: script.run, config, now: clock.now, timers: clock.timers, logger: { warn: () => {} }, ...extra });
  return { q, clock, ...script };
}

const S = "agent:main:telegram:direct:1";

describe("quiet window (debounce)", () => {
  it("followup waits for the quiet window after the run, then runs one turn per message", async () => {
    const { q, clock, calls, messages } = make({ messages: { queue: { mode: "followup", debounceMs: 500 } } });
    const first = q.submit({ sessionKey: S, text: "one" });
    await settle();
    void q.submit({ sessionKey: S, text: "two" });
    clock.advance(300);
    void q.submit({ sessionKey: S, text: "three" });
    calls[0]!.finish();
    await first;
    await settle();
    // 200 ms after "three": still inside the window that "three" opened.
    clock.advance(200);
    await settle();
    expect(messages()).toEqual(["one"]);
    clock.advance(300);
    await settle();
    expect(messages()).toEqual(["one", "two"]);
    calls[1]!.finish();
    await settle();
    // The window has long passed: the next message runs right away.
    expect(messages()).toEqual(["one", "two", "three"]);
    calls[2]!.finish();
    await q.idle();
  });

  it("collect uses debounceMsByChannel and merges everything that arrived", async () => {
    const { q, clock, calls, messages } = make({
      messages: { queue: { mode: "collect", debounceMs: 500, debounceMsByChannel: { telegram: 2000 } } },
    });
    void q.submit({ sessionKey: S, channel: "telegram", text: "start" });
    await settle();
    const outcomes = ["a", "b"].map((text) => q.submit({ sessionKey: S, channel: "telegram", text }));
    calls[0]!.finish();
    await settle();
    clock.advance(1999);
    await settle();
    expect(messages()).toEqual(["start"]);
    clock.advance(1);
    await settle();
    expect(messages()[1]).toBe("[2 messages arrived while you were busy, oldest first]\n\n(1) a\n\n(2) b");
    calls[1]!.finish("both");
    const [a, b] = await Promise.all(outcomes);
    expect(a!.kind).toBe("queued");
    expect(b!.kind).toBe("merged");
    expect((await (b as Extract<SubmitOutcome, { kind: "merged" }>).result)?.text).toBe("both");
  });

  it("an idle session runs a message at once, whatever the mode", async () => {
    const { q, calls, messages } = make({ messages: { queue: { mode: "collect", debounceMs: 60_000 } } });
    const outcome = q.submit({ sessionKey: S, text: "hi" });
    await settle();
    expect(messages()).toEqual(["hi"]);
    calls[0]!.finish();
    expect((await outcome).kind).toBe("ran");
  });
});

describe("global lane", () => {
  it("logs a notice only when a run waited longer than waitNoticeMs for a slot", async () => {
    const notices: string[] = [];
    const { q, clock, calls } = make({ agents: { defaults: { maxConcurrent: 1 } } }, { logger: { warn: (m) => notices.push(m) } });
    void q.submit({ sessionKey: "a", text: "a" });
    void q.submit({ sessionKey: "b", text: "b" });
    void q.submit({ sessionKey: "c", text: "c" });
    await settle();
    expect(calls.length).toBe(1);
    clock.advance(1500);
    calls[0]!.finish();
    await settle();
    expect(calls.length).toBe(2);
    expect(notices).toEqual([]);
    clock.advance(1000);
    calls[1]!.finish();
    await settle();
    expect(notices).toEqual(["session c waited 2.5 s for a free run slot (agents.defaults.maxConcurrent = 1)."]);
    calls[2]!.finish();
    await q.idle();
  });

  it("steering that arrives while the run waits for a slot joins its opening message", async () => {
    const { q, calls, messages } = make({ agents: { defaults: { maxConcurrent: 1 } } });
    void q.submit({ sessionKey: "a", text: "a" });
    const b = q.submit({ sessionKey: "b", text: "b1" });
    await settle();
    const steered = await q.submit({ sessionKey: "B", text: "b2" });
    expect(steered.kind).toBe("steered");
    calls[0]!.finish();
    await settle();
    expect(messages()).toEqual(["a", "b1\n\nb2"]);
    calls[1]!.finish("done");
    expect((await (steered as Extract<SubmitOutcome, { kind: "steered" }>).result)?.text).toBe("done");
    expect((await b).kind).toBe("ran");
  });

  it("defaults maxConcurrent to min(16, max(8, CPUs)), and an explicit value wins over the config", () => {
    const { q } = make(undefined);
    expect(q.maxConcurrent).toBeGreaterThanOrEqual(8);
    expect(q.maxConcurrent).toBeLessThanOrEqual(16);
    expect(make({ agents: { defaults: { maxConcurrent: 3 } } }, { maxConcurrent: 2 }).q.maxConcurrent).toBe(2);
  });
});

describe("steering edge cases", () => {
  it("drainSteering hands over everything waiting, FIFO, once", async () => {
    const { q, calls } = make(undefined);
    void q.submit({ sessionKey: S, text: "go" });
    await settle();
    void q.submit({ sessionKey: S, text: "x" });
    void q.submit({ sessionKey: S, text: "y" });
    expect(calls[0]!.request.drainSteering!()).toEqual(["x", "y"]);
    expect(calls[0]!.request.drainSteering!()).toEqual([]);
    expect(q.sessionState(S).active?.pendingSteering).toBe(0);
    calls[0]!.finish();
    await q.idle();
    expect(calls.length).toBe(1);
  });

  it("steering left in an aborted run is cancelled, not run later", async () => {
    const { q, calls } = make(undefined);
    const first = q.submit({ sessionKey: S, text: "go" });
    await settle();
    const steered = (await q.submit({ sessionKey: S, text: "x" })) as Extract<SubmitOutcome, { kind: "steered" }>;
    expect(q.abort({ runId: steered.turnId })).toEqual({ cancelled: 1, aborted: [steered.turnId] });
    expect(await steered.result).toBeUndefined();
    expect(((await first) as Extract<SubmitOutcome, { kind: "ran" }>).result.status).toBe("aborted");
    await q.idle();
    expect(calls.length).toBe(1);
  });

  it("interrupt during the quiet window (no run yet) drops what waits and runs now", async () => {
    const { q, calls, messages } = make({ messages: { queue: { mode: "followup", debounceMs: 500 } } });
    void q.submit({ sessionKey: S, text: "one" });
    await settle();
    const waiting = q.submit({ sessionKey: S, text: "two" });
    calls[0]!.finish();
    await settle();
    expect(messages()).toEqual(["one"]);
    await q.submit({ sessionKey: S, text: "/queue interrupt" });
    const now = q.submit({ sessionKey: S, text: "three" });
    await settle();
    expect(messages()).toEqual(["one", "three"]);
    calls[1]!.finish();
    const outcome = (await now) as Extract<SubmitOutcome, { kind: "ran" }>;
    expect(outcome.kind).toBe("ran");
    expect(outcome.interrupted).toBeUndefined();
    expect(outcome.droppedQueued).toBe(1);
    expect(await ((await waiting) as Extract<SubmitOutcome, { kind: "queued" }>).result).toBeUndefined();
  });

  it("session keys compare case-insensitively", async () => {
    const { q, calls } = make(undefined);
    void q.submit({ sessionKey: "Agent:Main:X", text: "a" });
    await settle();
    expect((await q.submit({ sessionKey: "agent:main:x", text: "b" })).kind).toBe("steered");
    calls[0]!.finish();
    await settle();
    calls[1]!.finish();
    await q.idle();
  });
});

describe("failures and shutdown", () => {
  it("a run that throws rejects its direct submit, logs, and the lane keeps going", async () => {
    const notices: string[] = [];
    const { q, calls, messages } = make(
      { messages: { queue: { mode: "followup", debounceMs: 0 } } },
      { logger: { warn: (m) => notices.push(m) } },
    );
    const first = q.submit({ sessionKey: S, text: "boom" });
    await settle();
    const next = q.submit({ sessionKey: S, text: "after" });
    calls[0]!.fail(new Error("disk full"));
    await expect(first).rejects.toThrow("disk full");
    await settle();
    expect(messages()).toEqual(["boom", "after"]);
    calls[1]!.finish();
    expect((await ((await next) as Extract<SubmitOutcome, { kind: "queued" }>).result)?.text).toBe("re: after");
    expect(notices[0]).toContain("disk full");
  });

  it("drain aborts what is still running at the deadline", async () => {
    const { q, clock } = make(undefined);
    const first = q.submit({ sessionKey: S, text: "forever" });
    await settle();
    const drained = q.drain({ timeoutMs: 1000 });
    clock.advance(1000);
    expect(await drained).toEqual({ timedOut: true });
    expect(((await first) as Extract<SubmitOutcome, { kind: "ran" }>).result.status).toBe("aborted");
  });

  it("a message cancelled while waiting for a slot resolves as cancelled", async () => {
    const { q, calls } = make({ agents: { defaults: { maxConcurrent: 1 } } });
    void q.submit({ sessionKey: "a", text: "a" });
    const b = q.submit({ sessionKey: "b", text: "b" });
    await settle();
    expect(q.abort("b")).toEqual({ cancelled: 0, aborted: [expect.any(String)] });
    expect(await b).toEqual({ kind: "cancelled", reason: "abort" });
    calls[0]!.finish();
    await q.idle();
    expect(calls.length).toBe(1);
  });
});

describe("inbox keys", () => {
  it("a turn carries the keys of every message its text stands for, early steering included", async () => {
    const { q, calls } = make(undefined);
    void q.submit({ sessionKey: S, text: "go", inboundKeys: ["k1"] });
    void q.submit({ sessionKey: S, text: "x", inboundKeys: ["k2"] });
    await settle();
    expect(calls[0]!.request.message).toBe("go\n\nx");
    expect(calls[0]!.request.inboundKeys).toEqual(["k1", "k2"]);
    calls[0]!.finish();
    await q.idle();
  });

  it("the keys of the message that gets the turn's events come last, after early steering's", async () => {
    const { q, calls } = make(undefined);
    const seen: string[] = [];
    void q.submit({ sessionKey: S, text: "go", inboundKeys: ["k1"], onEvent: (e) => seen.push(`go:${e.type}`) });
    void q.submit({ sessionKey: S, text: "x", inboundKeys: ["k2"], onEvent: (e) => seen.push(`x:${e.type}`) });
    await settle();
    expect(calls[0]!.request.message).toBe("go\n\nx");
    // "go" owns the turn (x joined it before it began): a replay resumes the turn through it.
    expect(calls[0]!.request.inboundKeys).toEqual(["k2", "k1"]);
    calls[0]!.request.onEvent!({ type: "steer", text: "probe" });
    expect(seen).toEqual(["go:steer"]);
    calls[0]!.finish();
    await q.idle();
  });

  it("drained steering comes with its keys; a message without keys stays plain text", async () => {
    const { q, calls } = make(undefined);
    void q.submit({ sessionKey: S, text: "go", inboundKeys: ["k1"] });
    await settle();
    void q.submit({ sessionKey: S, text: "x", inboundKeys: ["k2"] });
    void q.submit({ sessionKey: S, text: "y" });
    expect(calls[0]!.request.drainSteering!()).toEqual([{ text: "x", inboundKeys: ["k2"] }, "y"]);
    calls[0]!.finish();
    await q.idle();
  });

  it("steering the run never took runs as one turn with the keys of all its messages", async () => {
    const { q, calls } = make(undefined);
    void q.submit({ sessionKey: S, text: "go", inboundKeys: ["k1"] });
    await settle();
    void q.submit({ sessionKey: S, text: "x", inboundKeys: ["k2"] });
    void q.submit({ sessionKey: S, text: "y", inboundKeys: ["k3"] });
    calls[0]!.finish();
    await settle();
    expect(calls[1]!.request.message).toBe("x\n\ny");
    expect(calls[1]!.request.inboundKeys).toEqual(["k2", "k3"]);
    calls[1]!.finish();
    await q.idle();
  });
});
