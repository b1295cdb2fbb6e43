// Queue modes in front of a real AgentRuntime, against the fake OpenAI server on 127.0.0.1.
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/index.js";
import type { SubmitOutcome } from "../../src/queue/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";
import { expectKind, gate, onFirst, SESSION, useQueueHarness } from "./harness.js";

const h = useQueueHarness();

describe("steer (default)", () => {
  it("delivers a mid-run message after every tool call of the batch, before the next model call", async () => {
    h.fake.enqueue(
      [{ toolCall: { name: "gate", arguments: { id: "one" } } }, { toolCall: { name: "gate", arguments: { id: "two" } } }],
      [{ text: "both gates passed, and I will be brief" }],
    );
    const { q } = h.setup();
    let steered: Promise<SubmitOutcome> | undefined;
    const onEvent = (event: AgentEvent) => {
      if (event.type === "tool_start" && event.args && (event.args as { id?: string }).id === "one") {
        // Both tools are running: the message arrives mid-batch.
        steered = q.submit({ sessionKey: SESSION, text: "also, be brief" });
        gate("one").open();
      }
      if (event.type === "tool_end" && event.name === "gate" && event.result === "gate one passed") gate("two").open();
    };
    const ran = expectKind(await q.submit({ sessionKey: SESSION, channel: "telegram", text: "pass both gates", onEvent }), "ran");
    expect(ran.result.status).toBe("ok");
    expect(ran.result.text).toBe("both gates passed, and I will be brief");

    const steer = expectKind(await steered!, "steered");
    expect(steer.turnId).toBe(ran.turnId);
    expect(await steer.result).toEqual(ran.result);

    // Exactly two model calls: the steering did not start a turn of its own.
    expect(h.fake.requests.length).toBe(2);
    const second = h.fake.requests[1]!.body.messages as Array<{ role: string; content: string; tool_call_id?: string }>;
    expect(second.slice(-4).map((m) => m.role)).toEqual(["assistant", "tool", "tool", "user"]);
    expect(second.slice(-3, -1).map((m) => m.content)).toEqual(["gate one passed", "gate two passed"]);
    expect(second[second.length - 1]!.content).toBe("also, be brief");

    // The transcript is append-only and every tool call is paired with its result.
    const reader = openAgentStoreReadOnly({ stateDir: h.stateDir, agentId: "main" })!;
    const roles = reader
      .readEvents(ran.result.sessionId)
      .map((e) => (e.event as { message?: { role: string } }).message?.role ?? "session");
    reader.close();
    expect(roles).toEqual(["session", "user", "assistant", "toolResult", "toolResult", "user", "assistant"]);
  });

  it("turns steering the run never took into one follow-up turn, in order", async () => {
    h.fake.enqueue([{ text: "first answer" }]);
    const { q } = h.setup();
    const steered: Array<Promise<SubmitOutcome>> = [];
    const onEvent = onFirst("text_delta", () => {
      steered.push(q.submit({ sessionKey: SESSION, text: "second" }), q.submit({ sessionKey: SESSION, text: "third" }));
    });
    const ran = expectKind(await q.submit({ sessionKey: SESSION, text: "first", onEvent }), "ran");
    expect(ran.result.text).toBe("first answer");
    const [b, c] = await Promise.all(steered);
    const followUp = await expectKind(b!, "steered").result;
    expect(await expectKind(c!, "steered").result).toEqual(followUp);
    expect(followUp?.status).toBe("ok");
    expect(followUp?.runId).not.toBe(ran.result.runId);
    expect(h.lastUserTexts()).toEqual(["first", "second\n\nthird"]);
    expect(followUp?.text).toBe("second\n\nthird"); // the fake echoes
  });

  it("steer-backlog (legacy) steers now and also keeps the message for a follow-up turn", async () => {
    h.fake.enqueue([{ toolCall: { name: "gate", arguments: { id: "g" } } }], [{ text: "noted" }]);
    const { q } = h.setup({ messages: { queue: { mode: "steer", debounceMs: 0 } } });
    expectKind(await q.submit({ sessionKey: SESSION, text: "/queue steer-backlog" }), "command");
    let steered: Promise<SubmitOutcome> | undefined;
    const onEvent = onFirst("tool_start", () => {
      steered = q.submit({ sessionKey: SESSION, text: "and this" });
      gate("g").open();
    });
    await q.submit({ sessionKey: SESSION, text: "go", onEvent });
    expect(expectKind(await steered!, "steered").alsoQueued).toBe(true);
    await q.idle();
    expect(h.lastUserTexts()).toEqual(["go", "and this", "and this"]);
  });
});

describe("followup and collect", () => {
  it("followup runs each waiting message as its own turn, in order, after the active run", async () => {
    h.fake.enqueue([{ text: "answer one" }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 0 } } });
    const waiting: Array<Promise<SubmitOutcome>> = [];
    const onEvent = onFirst("text_delta", () => {
      waiting.push(q.submit({ sessionKey: SESSION, text: "two" }), q.submit({ sessionKey: SESSION, text: "three" }));
    });
    expectKind(await q.submit({ sessionKey: SESSION, text: "one", onEvent }), "ran");
    const [two, three] = await Promise.all(waiting);
    expect(expectKind(two!, "queued").position).toBe(1);
    expect(expectKind(three!, "queued").position).toBe(2);
    expect((await expectKind(two!, "queued").result)?.text).toBe("two");
    expect((await expectKind(three!, "queued").result)?.text).toBe("three");
    expect(h.lastUserTexts()).toEqual(["one", "two", "three"]);
  });

  it("collect merges a burst into one turn; another session (thread) drains separately", async () => {
    h.fake.enqueue([{ text: "busy" }], [{ text: "busy" }]);
    const { q } = h.setup({ messages: { queue: { mode: "collect", debounceMs: 0 } } });
    const THREAD = `${SESSION}:thread:9`;
    const waiting: Record<string, Array<Promise<SubmitOutcome>>> = { [SESSION]: [], [THREAD]: [] };
    const burst = (key: string, texts: string[]) =>
      onFirst("text_delta", () => {
        for (const text of texts) waiting[key]!.push(q.submit({ sessionKey: key, text }));
      });
    await Promise.all([
      q.submit({ sessionKey: SESSION, text: "start", onEvent: burst(SESSION, ["a", "b", "c"]) }),
      q.submit({ sessionKey: THREAD, text: "start", onEvent: burst(THREAD, ["x", "y"]) }),
    ]);
    const [a, b, c] = await Promise.all(waiting[SESSION]!);
    expectKind(a!, "queued");
    expect(expectKind(b!, "merged").groupSize).toBe(2);
    expect(expectKind(c!, "merged").groupSize).toBe(3);
    const merged = await expectKind(c!, "merged").result;
    expect(await expectKind(a!, "queued").result).toEqual(merged);
    expect((await Promise.all(waiting[THREAD]!)).map((o) => o.kind)).toEqual(["queued", "merged"]);
    await q.idle();
    expect(h.fake.requests.length).toBe(4);
    expect(h.lastUserTexts().slice(2).sort()).toEqual([
      "[2 messages arrived while you were busy, oldest first]\n\n(1) x\n\n(2) y",
      "[3 messages arrived while you were busy, oldest first]\n\n(1) a\n\n(2) b\n\n(3) c",
    ]);
  });

  it("a per-channel mode beats messages.queue.mode, and a /queue override beats both", async () => {
    const { q } = h.setup({ messages: { queue: { mode: "followup", byChannel: { telegram: "collect" } } } });
    expect(q.settings(SESSION, "telegram")).toMatchObject({ mode: "collect", modeSource: "channel" });
    expect(q.settings("agent:main:matrix:direct:1", "matrix")).toMatchObject({ mode: "followup", modeSource: "config" });
    const set = expectKind(
      await q.submit({ sessionKey: SESSION, channel: "telegram", text: "/queue interrupt debounce:1s cap:5 drop:old" }),
      "command",
    );
    expect(set.settings).toMatchObject({ mode: "interrupt", modeSource: "session", debounceMs: 1000, cap: 5, drop: "old" });
    expect(set.reply).toContain("interrupt");
    // Other sessions keep their settings.
    expect(q.settings("agent:main:telegram:direct:7", "telegram").mode).toBe("collect");
    const reset = expectKind(await q.submit({ sessionKey: SESSION, channel: "telegram", text: "/queue reset" }), "command");
    expect(reset.settings).toMatchObject({ mode: "collect", modeSource: "channel", debounceMs: 500, cap: 20, drop: "summarize" });
    const shown = expectKind(await q.submit({ sessionKey: SESSION, channel: "telegram", text: "/queue" }), "command");
    expect(shown.reply).toBe("Queue mode: collect (channel default); debounce 500ms, cap 20, drop summarize.");
    const bad = expectKind(await q.submit({ sessionKey: SESSION, text: "/queue sideways cap:0" }), "command");
    expect(bad.reply).toMatch(/not a queue mode.*cap "0"/);
    // No /queue command ever reached the agent.
    expect(h.fake.requests.length).toBe(0);
  });
});

describe("interrupt", () => {
  it("aborts the active run, drops what was waiting, and runs the newest message", async () => {
    h.fake.enqueue([{ text: "working " }, { delayMs: 10_000 }, { text: "never" }]);
    const { q } = h.setup({ messages: { queue: { debounceMs: 0 } } });
    await q.submit({ sessionKey: SESSION, text: "/queue followup" });
    let waiting: Promise<SubmitOutcome> | undefined;
    let interrupting: Promise<SubmitOutcome> | undefined;
    const onEvent = onFirst("text_delta", () => {
      waiting = q.submit({ sessionKey: SESSION, text: "waits" });
      void q.submit({ sessionKey: SESSION, text: "/queue interrupt" });
      interrupting = q.submit({ sessionKey: SESSION, text: "stop, do this instead" });
    });
    const first = expectKind(await q.submit({ sessionKey: SESSION, text: "long job", onEvent }), "ran");
    expect(first.result.status).toBe("aborted");
    const newest = expectKind(await interrupting!, "ran");
    expect(newest.result.status).toBe("ok");
    expect(newest.result.text).toBe("stop, do this instead");
    expect(newest.interrupted?.turnId).toBe(first.turnId);
    expect(newest.interrupted?.runId).toBe(first.result.runId);
    expect(newest.droppedQueued).toBe(1);
    expect(await expectKind(await waiting!, "queued").result).toBeUndefined();
    expect(h.lastUserTexts()).toEqual(["long job", "stop, do this instead"]);
  });
});

describe("cap and drop", () => {
  const burst = async (drop: string) => {
    h.fake.enqueue([{ text: "busy" }]);
    const { q } = h.setup({ messages: { queue: { mode: "followup", debounceMs: 0, cap: 2, drop } } });
    const outcomes: Array<Promise<SubmitOutcome>> = [];
    const onEvent = onFirst("text_delta", () => {
      for (const text of ["m1 is a fairly long message with many words in it", "m2", "m3", "m4"])
        outcomes.push(q.submit({ sessionKey: SESSION, text }));
    });
    await q.submit({ sessionKey: SESSION, text: "start", onEvent });
    const settled = await Promise.all(outcomes);
    await q.idle();
    return settled;
  };

  it('drop "old" drops the oldest waiting message', async () => {
    const [m1, , m3, m4] = await burst("old");
    expect(await expectKind(m1!, "queued").result).toBeUndefined();
    expect(expectKind(m3!, "queued").droppedOldest).toBe(1);
    expect(expectKind(m4!, "queued").droppedOldest).toBe(1);
    expect(h.lastUserTexts()).toEqual(["start", "m3", "m4"]);
  });

  it('drop "new" rejects the incoming message', async () => {
    const [, , m3, m4] = await burst("new");
    expect(expectKind(m3!, "dropped").reason).toBe("cap");
    expect(expectKind(m4!, "dropped").message).toContain("cap 2");
    expect(h.lastUserTexts()).toEqual(["start", "m1 is a fairly long message with many words in it", "m2"]);
  });

  it('drop "summarize" drops the oldest and tells the next turn what was dropped', async () => {
    await burst("summarize");
    expect(h.lastUserTexts()).toEqual([
      "start",
      "[2 earlier messages were dropped:\n- m1 is a fairly long message with many…\n- m2]\n\nm3",
      "m4",
    ]);
  });
});
