// Scheduled turns through a real MessageQueue: they wait for a busy session as turns of their own,
// take no steering, are skipped while one is pending, and deliver only what should be delivered.
import { describe, expect, it } from "vitest";
import type { TurnRequest, TurnResult } from "../agent/index.js";
import { MessageQueue } from "../queue/index.js";
import { runScheduledTurn, type ScheduledTurnDeps, type ScheduledTurnTarget } from "./scheduled-turn.js";

/** A `run` whose turns finish when the test says so. */
function scriptedRun() {
  const calls: { request: TurnRequest; finish(text: string): void }[] = [];
  let started: (() => void) | undefined;
  const run = (request: TurnRequest) =>
    new Promise<TurnResult>((resolve) => {
      calls.push({
        request,
        finish: (text) =>
          resolve({
            runId: `run-${calls.length}`,
            status: "ok",
            agentId: "main",
            sessionKey: request.sessionKey ?? "",
            sessionId: "s",
            text,
            silent: text === "NO_REPLY",
            usage: { inputTokens: 0, outputTokens: 0 },
          }),
      });
      started?.();
    });
  /** Resolves once `count` runs have started. */
  const runsStarted = (count: number) =>
    new Promise<void>((resolve) => {
      started = () => (calls.length >= count ? resolve() : undefined);
      started();
    });
  return { run, calls, runsStarted };
}

const KEY = "agent:main:main";
const CHAT: ScheduledTurnTarget = { channel: "telegram", accountId: "default", chatId: "42" };

function setup() {
  const script = scriptedRun();
  const queue = new MessageQueue({ run: script.run, config: {}, logger: { warn: () => undefined } });
  const delivered: { target: ScheduledTurnTarget; text: string; key: string }[] = [];
  const deps: ScheduledTurnDeps = {
    queue,
    deliver: async (target, text, key) => void delivered.push({ target, text, key }),
    lastContact: () => undefined,
  };
  return { ...script, queue, deps, delivered };
}

describe("runScheduledTurn", () => {
  it("waits for a busy session, runs as its own turn with its trigger, and takes no steering", async () => {
    const t = setup();
    const user = t.queue.submit({ sessionKey: KEY, text: "a long question" });
    await t.runsStarted(1);
    const heartbeat = runScheduledTurn(t.deps, { agentId: "main", sessionKey: KEY, message: "beat", trigger: "heartbeat", target: CHAT });
    // The session is busy: nothing new runs, and the heartbeat did not join the user's run.
    expect(t.calls).toHaveLength(1);
    expect(t.queue.sessionState(KEY)).toMatchObject({ queued: 1, active: { pendingSteering: 0 } });
    t.calls[0]!.finish("answer");
    await user;
    await t.runsStarted(2);
    expect(t.calls[1]!.request).toMatchObject({ message: "beat", trigger: "heartbeat", touch: false });

    // A person's message during the heartbeat waits for a turn of its own (default mode steer).
    const followUp = await t.queue.submit({ sessionKey: KEY, text: "and another thing" });
    expect(followUp.kind).toBe("queued");
    t.calls[1]!.finish("Water the plants.");
    expect(await heartbeat).toMatchObject({ status: "ran", delivered: true });
    expect(t.delivered).toEqual([{ target: CHAT, text: "Water the plants.", key: "scheduled:heartbeat:run-2" }]);
    await t.runsStarted(3);
    expect(t.calls[2]!.request.message).toBe("and another thing");
    t.calls[2]!.finish("ok");
  });

  it("is skipped while a run with the same pending key waits or runs", async () => {
    const t = setup();
    const req = { agentId: "main", sessionKey: KEY, message: "beat", trigger: "heartbeat" as const, target: CHAT };
    const first = runScheduledTurn(t.deps, req);
    await t.runsStarted(1);
    expect(await runScheduledTurn(t.deps, req)).toEqual({ status: "skipped-busy", delivered: false });
    // Another key (a cron job) is not held back by it.
    const cron = runScheduledTurn(t.deps, { ...req, trigger: "cron", pendingKey: "cron:job-1", message: "job" });
    t.calls[0]!.finish("HEARTBEAT_OK");
    await t.runsStarted(2);
    t.calls[1]!.finish("job done");
    expect(await cron).toMatchObject({ status: "ran", delivered: true });
    expect(await first).toMatchObject({ status: "ran", delivered: true });
    // Finished: the key is free again.
    const again = runScheduledTurn(t.deps, req);
    await t.runsStarted(3);
    t.calls[2]!.finish("NO_REPLY");
    expect(await again).toMatchObject({ status: "ran", delivered: false, notDelivered: "silent" });
  });

  it("delivers nothing for none, for last without a contact, or when declined", async () => {
    const t = setup();
    const base = { agentId: "main", sessionKey: KEY, message: "beat", trigger: "heartbeat" as const };
    const cases = [
      runScheduledTurn(t.deps, { ...base, target: "none" }),
      runScheduledTurn(t.deps, { ...base, sessionKey: "agent:main:other", target: "last" }),
      runScheduledTurn(t.deps, { ...base, sessionKey: "agent:main:third", target: CHAT, shouldDeliver: () => false }),
    ];
    await t.runsStarted(3);
    for (const call of t.calls) call.finish("text");
    expect((await Promise.all(cases)).map((o) => o.notDelivered)).toEqual(["no-target", "no-target", "declined"]);
    expect(t.delivered).toEqual([]);
  });
});
