import { describe, expect, it } from "vitest";
import type { TurnResult } from "../agent/index.js";
import type { SubmitOutcome } from "../queue/index.js";
import { inboundMessage, pendingRow } from "./__fixtures__/messages.js";
import type { InboxStore } from "./store.js";
import { attemptReplyKey, InboxTurn, inboxKeyOf, replyKeyOf } from "./turn.js";

const message = inboundMessage();
const result = (status: TurnResult["status"]): TurnResult => ({
  runId: "r",
  status,
  agentId: "main",
  sessionKey: "s",
  sessionId: "s",
  text: "",
  silent: false,
  usage: { inputTokens: 0, outputTokens: 0 },
});
const turnWhile = (stopping: boolean) => new InboxTurn({} as InboxStore, pendingRow(1, message), { attempt: 1, stopping: () => stopping });
const pending: Promise<TurnResult | undefined> = Promise.resolve(undefined);

describe("InboxTurn", () => {
  it("names the message and its reply keys; a replay gets a reply key of its own", () => {
    expect(inboxKeyOf(message)).toBe("chat:default:42:10");
    expect(replyKeyOf(message)).toBe("reply:chat:default:42:10");
    expect(attemptReplyKey(message, 1)).toBe("reply:chat:default:42:10");
    expect(attemptReplyKey(message, 3)).toBe("reply:chat:default:42:10:r3");
    expect(turnWhile(false).inboundKeys).toEqual(["chat:default:42:10"]);
  });

  it("settles a message that was answered, or that gets no reply by decision", () => {
    const turn = turnWhile(false);
    const verdict = (outcome: SubmitOutcome, r?: TurnResult) => turn.verdict(outcome, r).state;
    expect(verdict({ kind: "ran", turnId: "t", result: result("ok") })).toBe("answered");
    expect(verdict({ kind: "ran", turnId: "t", result: result("error") })).toBe("answered");
    expect(verdict({ kind: "ran", turnId: "t", result: result("aborted") })).toBe("answered");
    expect(verdict({ kind: "steered", turnId: "t", alsoQueued: false, result: pending }, result("ok"))).toBe("answered");
    expect(verdict({ kind: "merged", turnId: "t", groupSize: 2, droppedOldest: 0, result: pending }, result("ok"))).toBe("answered");
    expect(verdict({ kind: "cancelled", reason: "interrupt" })).toBe("answered");
    expect(verdict({ kind: "command", reply: "ok", settings: {} as never })).toBe("answered");
    expect(verdict({ kind: "dropped", reason: "cap", message: "full" })).toBe("dropped");
  });

  it("keeps a message pending when the gateway stopping cut it off, so the next start answers it", () => {
    const stopping = turnWhile(true);
    const verdict = (outcome: SubmitOutcome, r?: TurnResult) => stopping.verdict(outcome, r).state;
    expect(verdict({ kind: "ran", turnId: "t", result: result("aborted") })).toBe("pending");
    expect(verdict({ kind: "queued", turnId: "t", position: 1, droppedOldest: 0, result: pending }, undefined)).toBe("pending");
    expect(verdict({ kind: "cancelled", reason: "closed" })).toBe("pending");
    expect(verdict({ kind: "dropped", reason: "closed", message: "closing" })).toBe("pending");
    // Answered before the stop: settled as usual.
    expect(verdict({ kind: "ran", turnId: "t", result: result("ok") })).toBe("answered");
    expect(turnWhile(false).verdict({ kind: "dropped", reason: "closed", message: "closing" }).state).toBe("pending");
  });
});
