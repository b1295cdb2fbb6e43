import { describe, expect, it } from "vitest";
import { PermanentSendError, RateLimitedError, TransientSendError } from "@openclaw/plugin-sdk";
import { FakeClock, settle } from "./__fixtures__/fake-clock.js";
import { SendBudget, sendBudgetFor, SendRetriesExhaustedError, type BudgetResult } from "./index.js";

function setup(options: ConstructorParameters<typeof SendBudget>[0] = {}) {
  const clock = new FakeClock();
  const budget = new SendBudget({ clock, ...options });
  const log: Array<{ label: string; at: number }> = [];
  const send = (label: string, fail?: () => Error | undefined) => async (): Promise<string> => {
    log.push({ label, at: clock.now() });
    const error = fail?.();
    if (error !== undefined) throw error;
    return label;
  };
  return { clock, budget, log, send, t0: clock.now() };
}

function networkError(): Error {
  return Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
}

describe("SendBudget", () => {
  it("never drops finals: a burst of finals waits for tokens and leaves in order at the chat rate", async () => {
    const { clock, budget, log, send, t0 } = setup({ perChatRate: 1, perChatBurst: 3 });
    const results = Array.from({ length: 6 }, (_, i) => budget.run("chat", "final", send(`f${i}`)));
    const all = await clock.run(Promise.all(results));
    expect(all.map((r) => r.status)).toEqual(Array(6).fill("sent"));
    expect(log.map((e) => e.label)).toEqual(["f0", "f1", "f2", "f3", "f4", "f5"]);
    expect(log.map((e) => e.at - t0)).toEqual([0, 0, 0, 1000, 2000, 3000]);
  });

  it("keeps strict FIFO between blocks and the final of a chat, across a 429 on the block", async () => {
    const { clock, budget, log, send, t0 } = setup();
    let first = true;
    const block = budget.run(
      "chat",
      "block",
      send("block", () => (first ? ((first = false), new RateLimitedError("429", 2000)) : undefined)),
    );
    const final = budget.run("chat", "final", send("final"));
    await clock.run(Promise.all([block, final]));
    expect(log.map((e) => `${e.label}@${e.at - t0}`)).toEqual(["block@0", "block@2000", "final@3000"]);
  });

  it("pauses the chat for retry_after and drops previews and typing meanwhile", async () => {
    const { clock, budget, log, send } = setup();
    let first = true;
    const final = budget.run(
      "chat",
      "final",
      send("final", () => (first ? ((first = false), new RateLimitedError("429", 5000)) : undefined)),
    );
    await clock.advance(10);
    expect(budget.isPaused("chat")).toBe(true);
    expect(await budget.run("chat", "preview", send("preview"))).toEqual({ status: "dropped", reason: "pressure" });
    expect(await budget.run("chat", "typing", send("typing"))).toEqual({ status: "dropped", reason: "pressure" });
    // Another chat of the same account is not paused.
    expect((await clock.run(budget.run("other", "preview", send("other-preview")))).status).toBe("sent");
    expect((await clock.run(final)).status).toBe("sent");
    expect(log.map((e) => e.label)).toEqual(["final", "other-preview", "final"]);
  });

  it("sends only the newest of queued previews with the same supersede key", async () => {
    const { clock, budget, log, send } = setup({ perChatBurst: 2 });
    // One preview spends the spare token; the next ones must wait for a refill.
    await clock.run(budget.run("chat", "preview", send("p0"), { supersedeKey: "msg" }));
    const p1 = budget.run("chat", "preview", send("p1"), { supersedeKey: "msg" });
    const p2 = budget.run("chat", "preview", send("p2"), { supersedeKey: "msg" });
    const other = budget.run("chat", "preview", send("other"), { supersedeKey: "other-msg" });
    expect(await p1).toEqual({ status: "dropped", reason: "superseded" });
    await clock.run(Promise.all([p2, other]));
    expect(log.map((e) => e.label)).toEqual(["p0", "p2", "other"]);
  });

  it("drops a waiting preview when a final for the same chat arrives, and refuses previews behind finals", async () => {
    const { clock, budget, log, send } = setup({ perChatBurst: 2 });
    await clock.run(budget.run("chat", "preview", send("p0")));
    const waiting = budget.run("chat", "preview", send("p1"));
    const final = budget.run("chat", "final", send("final"));
    expect(await waiting).toEqual({ status: "dropped", reason: "pressure" });
    await clock.run(final);
    expect(log.map((e) => e.label)).toEqual(["p0", "final"]);
  });

  it("keeps the last token of a chat for the final: previews wait, typing is dropped", async () => {
    const { clock, budget, log, send, t0 } = setup({ perChatRate: 1, perChatBurst: 3 });
    const p = [0, 1, 2].map((i) => budget.run("chat", "preview", send(`p${i}`)));
    await clock.advance(0);
    expect(log.map((e) => e.label)).toEqual(["p0", "p1"]); // 3 -> 2 -> 1 token: the last one is reserved
    expect(await budget.run("chat", "typing", send("typing"))).toEqual({ status: "dropped", reason: "pressure" });
    const final = budget.run("chat", "final", send("final"));
    const results = await clock.run(Promise.all([...p, final]));
    expect(results.map((r) => r.status)).toEqual(["sent", "sent", "dropped", "sent"]);
    expect(log.map((e) => `${e.label}@${e.at - t0}`)).toEqual(["p0@0", "p1@0", "final@0"]);
  });

  it("never retries a PermanentSendError", async () => {
    const { clock, budget, log, send } = setup();
    const result = budget.run(
      "chat",
      "final",
      send("final", () => new PermanentSendError("chat not found")),
    );
    await expect(clock.run(result)).rejects.toBeInstanceOf(PermanentSendError);
    expect(log).toHaveLength(1);
  });

  it("retries network errors of finals with backoff, up to 3 times", async () => {
    const { clock, budget, log, send, t0 } = setup({ transientBackoffMs: 500 });
    let failures = 2;
    const ok = await clock.run(
      budget.run(
        "chat",
        "final",
        send("final", () => (failures-- > 0 ? networkError() : undefined)),
      ),
    );
    expect(ok).toEqual({ status: "sent", value: "final" });
    expect(log.map((e) => e.at - t0)).toEqual([0, 500, 1500]);

    log.length = 0;
    const never = budget.run("c2", "block", send("block", networkError));
    await expect(clock.run(never)).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(log).toHaveLength(4);
    // A preview is not retried: the next edit will carry the newer text anyway.
    await expect(clock.run(budget.run("c3", "preview", send("p", networkError)))).rejects.toMatchObject({ code: "ECONNRESET" });
  });

  it("retries 5xx answers and TransientSendErrors (waiting their retryAfterMs when longer than the backoff)", async () => {
    const { clock, budget, log, send, t0 } = setup({ transientBackoffMs: 500 });
    const failures = [
      () => Object.assign(new Error("Bad Gateway"), { error_code: 502 }),
      () => new TransientSendError("the platform is restarting", { retryAfterMs: 3000 }),
    ];
    const ok = await clock.run(
      budget.run(
        "chat",
        "final",
        send("final", () => failures.shift()?.()),
      ),
    );
    expect(ok).toEqual({ status: "sent", value: "final" });
    expect(log.map((e) => e.at - t0)).toEqual([0, 500, 3500]);

    log.length = 0;
    const refused = budget.run(
      "c2",
      "final",
      send("final", () => Object.assign(new Error("Bad Request"), { error_code: 400 })),
    );
    await expect(clock.run(refused)).rejects.toMatchObject({ error_code: 400 });
    expect(log).toHaveLength(1);
  });

  it("gives up on a final after 8 rate-limit answers with a clear error", async () => {
    const { clock, budget, log, send } = setup();
    const result = budget.run(
      "chat",
      "final",
      send("final", () => new RateLimitedError("429", 1000)),
    );
    const error = await clock.run(result).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendRetriesExhaustedError);
    expect((error as Error).message).toMatch(/gave up after 8 rate-limit answers .* chat chat/);
    expect((error as Error).cause).toBeInstanceOf(RateLimitedError);
    expect(log).toHaveLength(8);
  });

  it("drops waiting sends whose signal aborts, and does not retry an aborted one", async () => {
    const { clock, budget, log, send } = setup({ perChatBurst: 1, perChatRate: 1 });
    await clock.run(budget.run("chat", "final", send("f0")));
    const controller = new AbortController();
    const waiting = budget.run("chat", "final", send("f1"), { signal: controller.signal });
    controller.abort();
    expect(await waiting).toEqual({ status: "dropped", reason: "aborted" });
    expect(await budget.run("chat", "final", send("f2"), { signal: controller.signal })).toEqual({ status: "dropped", reason: "aborted" });
    const inflight = new AbortController();
    const failing = budget.run(
      "chat",
      "final",
      send("f3", () => {
        inflight.abort();
        return new RateLimitedError("429", 100);
      }),
      { signal: inflight.signal },
    );
    expect(await clock.run(failing)).toEqual({ status: "dropped", reason: "aborted" });
    expect(log.map((e) => e.label)).toEqual(["f0", "f3"]);
  });

  it("shares the account-wide rate between chats", async () => {
    const { clock, budget, log, send, t0 } = setup({ perChatRate: 10, perChatBurst: 10, globalRate: 2, globalBurst: 2 });
    const runs = ["a", "b", "c", "d"].map((chat) => budget.run(chat, "final", send(chat)));
    await clock.run(Promise.all(runs));
    expect(log.map((e) => `${e.label}@${e.at - t0}`)).toEqual(["a@0", "b@0", "c@500", "d@1000"]);
  });

  it("with unlimited rates, sends everything at once", async () => {
    const { budget, log, send } = setup({ perChatRate: Number.POSITIVE_INFINITY, globalRate: Number.POSITIVE_INFINITY });
    const results: Promise<BudgetResult<string>>[] = [];
    for (let i = 0; i < 200; i++) results.push(budget.run(`chat${i % 5}`, "final", send(`f${i}`)));
    await settle();
    expect((await Promise.all(results)).every((r) => r.status === "sent")).toBe(true);
    expect(log).toHaveLength(200);
  });

  it("rejects nonsense limits", () => {
    expect(() => new SendBudget({ perChatRate: 0 })).toThrow(/perChatRate must be a positive number/);
    expect(() => new SendBudget({ perChatBurst: 0.5 })).toThrow(/perChatBurst must be at least 1/);
  });
});

describe("sendBudgetFor", () => {
  it("paces by the channel's declared send rate", async () => {
    const clock = new FakeClock();
    const log: number[] = [];
    const budget = sendBudgetFor({ sendRate: { perChat: 2, perChatBurst: 1 } }, { clock });
    const send = async () => void log.push(clock.now());
    await clock.run(Promise.all([0, 1, 2].map(() => budget.run("chat", "final", send))));
    expect(log.map((t) => t - log[0]!)).toEqual([0, 500, 1000]);
    const unlimited = sendBudgetFor({ sendRate: { perChat: Number.POSITIVE_INFINITY, global: Number.POSITIVE_INFINITY } }, { clock });
    const results = await Promise.all(Array.from({ length: 100 }, () => unlimited.run("chat", "final", send)));
    expect(results.every((r) => r.status === "sent")).toBe(true);
  });
});

describe("SendBudget reply quota (per inbound message)", () => {
  const quota = { perInbound: 5, windowMs: 60_000 };
  const inbound = { inReplyTo: "in-1" };

  it("keeps the final's reply: typing is dropped first, then previews; blocks leave the reserve; the final always goes", async () => {
    const { clock, budget, send } = setup({ replyQuota: quota, perChatRate: Number.POSITIVE_INFINITY });
    const outcome = async (priority: Parameters<typeof budget.run>[1]) =>
      (await clock.run(budget.run("chat", priority, send(priority), inbound))).status === "sent" ? "sent" : "quota";
    expect(budget.repliesLeft("chat", "in-1")).toBe(5);
    expect(await outcome("typing")).toBe("sent"); // 4 left
    expect(await outcome("typing")).toBe("sent"); // 3 left
    expect(await outcome("typing")).toBe("quota"); // would leave 2: typing needs 3 to remain
    expect(await outcome("preview")).toBe("sent"); // 2 left
    expect(await outcome("preview")).toBe("quota");
    expect(await outcome("block")).toBe("sent"); // 1 left: the final's
    expect(await outcome("block")).toBe("quota");
    // Edits, deletes and stream updates spend nothing.
    expect((await clock.run(budget.run("chat", "preview", send("edit"), { ...inbound, replySlots: 0 }))).status).toBe("sent");
    expect(await outcome("final")).toBe("sent");
    expect(await outcome("final")).toBe("sent"); // past the quota: a final is never dropped
    expect(budget.repliesLeft("chat", "in-1")).toBe(-1);
    // Another inbound message (and a send that answers none) have their own count.
    expect(budget.repliesLeft("chat", "in-2")).toBe(5);
    expect(budget.repliesLeft("chat", undefined)).toBe(Number.POSITIVE_INFINITY);
    expect(await clock.run(budget.run("chat", "typing", send("t"), { inReplyTo: "in-2" }))).toEqual({ status: "sent", value: "t" });
  });

  it("gives back the replies of sends that never left, and starts over after the window", async () => {
    const { clock, budget, send } = setup({ replyQuota: quota, perChatRate: 1, perChatBurst: 2 });
    await clock.run(budget.run("chat", "final", send("f1"), inbound));
    await clock.run(budget.run("chat", "final", send("f2"), inbound));
    expect(budget.repliesLeft("chat", "in-1")).toBe(3);
    // No token now: the preview waits, claiming a reply, and is dropped when a block arrives.
    const preview = budget.run("chat", "preview", send("p"), inbound);
    expect(budget.repliesLeft("chat", "in-1")).toBe(2);
    const block = budget.run("chat", "block", send("b"), inbound);
    expect(await preview).toEqual({ status: "dropped", reason: "pressure" });
    await clock.run(block);
    expect(budget.repliesLeft("chat", "in-1")).toBe(2);
    await clock.advance(60_000);
    expect(budget.repliesLeft("chat", "in-1")).toBe(5);
  });

  it("sendBudgetFor takes the quota from the channel's capabilities", () => {
    const budget = sendBudgetFor({ replyQuota: { perInbound: 4, windowMs: 1000 } });
    expect(budget.repliesLeft("c", "m")).toBe(4);
    expect(budget.finalReserve).toBe(1);
  });
});
