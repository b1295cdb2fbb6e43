// Session lanes, the global cap, abort and shutdown, with a real AgentRuntime and the fake OpenAI server.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/index.js";
import type { MessageQueue, SubmitOutcome } from "../../src/queue/index.js";
import { expectKind, onFirst, SESSION, useQueueHarness } from "./harness.js";

const h = useQueueHarness();

describe("lanes", () => {
  it("maxConcurrent 1 runs two sessions one after the other, and logs a long wait", async () => {
    h.fake.enqueue([{ text: "a" }, { delayMs: 50 }, { text: "a" }]);
    const notices: string[] = [];
    const { q } = h.setup(
      { agents: { defaults: { model: "local/fake-model", workspace: path.join(h.stateDir, "ws"), maxConcurrent: 1 } } },
      {
        waitNoticeMs: 0,
        logger: { warn: (m) => notices.push(m) },
      },
    );
    expect(q.maxConcurrent).toBe(1);
    const log: string[] = [];
    const tag = (name: string) => (e: AgentEvent) => {
      if (e.type === "run_start" || e.type === "run_end") log.push(`${name}:${e.type}`);
    };
    const [a, b] = await Promise.all([
      q.submit({ sessionKey: "agent:main:telegram:direct:1", text: "A", onEvent: tag("A") }),
      q.submit({ sessionKey: "agent:main:telegram:direct:2", text: "B", onEvent: tag("B") }),
    ]);
    expect(log).toEqual(["A:run_start", "A:run_end", "B:run_start", "B:run_end"]);
    expect(expectKind(a!, "ran").result.text).toBe("aa");
    expect(expectKind(b!, "ran").result.text).toBe("B");
    expect(notices.some((n) => n.includes("agent:main:telegram:direct:2") && n.includes("maxConcurrent = 1"))).toBe(true);
  });

  it("one run at a time per session even when the global cap allows more", async () => {
    h.fake.enqueue([{ text: "x" }, { delayMs: 30 }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 0 } } });
    const log: string[] = [];
    const tag = (name: string) => (e: AgentEvent) => {
      if (e.type === "run_start" || e.type === "run_end") log.push(`${name}:${e.type}`);
    };
    const first = q.submit({ sessionKey: SESSION, text: "one", onEvent: tag("one") });
    const second = q.submit({ sessionKey: SESSION, text: "two", onEvent: tag("two") });
    expectKind(await second, "queued");
    await first;
    await q.idle();
    expect(log).toEqual(["one:run_start", "one:run_end", "two:run_start", "two:run_end"]);
  });

  it("abort(sessionKey) cancels waiting messages first, then the active run", async () => {
    h.fake.enqueue([{ text: "working" }, { delayMs: 10_000 }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 0 } } });
    let waiting: Promise<SubmitOutcome> | undefined;
    let summary: ReturnType<MessageQueue["abort"]> | undefined;
    const onEvent = onFirst("text_delta", () => {
      waiting = q.submit({ sessionKey: SESSION, text: "later" });
      summary = q.abort(SESSION);
    });
    const first = expectKind(await q.submit({ sessionKey: SESSION, text: "long", onEvent }), "ran");
    expect(first.result.status).toBe("aborted");
    expect(summary).toEqual({ cancelled: 1, aborted: [first.turnId] });
    expect(await expectKind(await waiting!, "queued").result).toBeUndefined();
    expect(h.fake.requests.length).toBe(1);
  });

  it("abort with a run id cancels that queued turn only", async () => {
    h.fake.enqueue([{ text: "busy" }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 0 } } });
    let summary: Promise<ReturnType<MessageQueue["abort"]>> | undefined;
    const onEvent = onFirst("text_delta", () => {
      void q.submit({ sessionKey: SESSION, text: "keep" });
      // Outcomes settle in a microtask, well before the run's next network event.
      summary = q.submit({ sessionKey: SESSION, text: "cancel me" }).then((o) => q.abort({ runId: expectKind(o, "queued").turnId }));
    });
    const started = await q.submit({ sessionKey: SESSION, text: "start", onEvent });
    expect(expectKind(started, "ran").result.status).toBe("ok");
    expect(await summary!).toEqual({ cancelled: 1, aborted: [] });
    await q.idle();
    expect(h.lastUserTexts()).toEqual(["start", "keep"]);
  });

  it("close waits for the active run, cancels what waits, and refuses new messages", async () => {
    h.fake.enqueue([{ text: "finishing" }, { delayMs: 30 }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 0 } } });
    let waiting: Promise<SubmitOutcome> | undefined;
    let closed: Promise<{ timedOut: boolean }> | undefined;
    const onEvent = onFirst("text_delta", () => {
      waiting = q.submit({ sessionKey: SESSION, text: "later" });
      closed = q.close({ timeoutMs: 5000 });
    });
    const first = expectKind(await q.submit({ sessionKey: SESSION, text: "go", onEvent }), "ran");
    expect(first.result.status).toBe("ok");
    expect(await closed!).toEqual({ timedOut: false });
    expect(await expectKind(await waiting!, "queued").result).toBeUndefined();
    expect(expectKind(await q.submit({ sessionKey: SESSION, text: "too late" }), "dropped").reason).toBe("closed");
  });

  it("drain runs what is already waiting before it resolves", async () => {
    h.fake.enqueue([{ text: "one" }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 60_000 } } });
    let waiting: Promise<SubmitOutcome> | undefined;
    const onEvent = onFirst("text_delta", () => {
      waiting = q.submit({ sessionKey: SESSION, text: "two" });
    });
    await q.submit({ sessionKey: SESSION, text: "one", onEvent });
    // The quiet window is a minute long; drain does not wait for it.
    expect(await q.drain({ timeoutMs: 5000 })).toEqual({ timedOut: false });
    expect((await expectKind(await waiting!, "queued").result)?.text).toBe("two");
  });
});
