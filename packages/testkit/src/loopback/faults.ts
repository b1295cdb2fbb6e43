// Faults the loopback platform answers with on demand: rate limits (with the penalty window real
// platforms enforce), refused edits, arbitrary errors and latency.
import { PermanentSendError, RateLimitedError } from "@openclaw/plugin-sdk";
import type { LoopbackOp, RateLimitOptions } from "./types.js";

interface RateLimitFault {
  remaining: number;
  retryAfterMs: number;
  ops: readonly LoopbackOp[];
  chatId: string | undefined;
}

/** Why a call was refused, for the call log. */
export interface Refusal {
  error: Error;
  code: string;
  retryAfterMs?: number;
}

const DEFAULT_RATE_LIMITED_OPS: readonly LoopbackOp[] = ["send", "edit", "delete"];

/** Internal: the fault state of one platform. */
export class Faults {
  #rateLimits: RateLimitFault[] = [];
  #editFailures = 0;
  #next: Array<{ op: LoopbackOp; error: Error | (() => Error) }> = [];
  #latency: Partial<Record<LoopbackOp, number>> = {};
  /** Chat id -> end of its rate-limit penalty. */
  #penalties = new Map<string, number>();

  constructor(private readonly enforceRetryAfter: boolean) {}

  rateLimit(count: number, retryAfterMs: number, options: RateLimitOptions = {}): void {
    if (!(count > 0)) return;
    this.#rateLimits.push({
      remaining: Math.floor(count),
      retryAfterMs: Math.max(0, retryAfterMs),
      ops: options.ops ?? DEFAULT_RATE_LIMITED_OPS,
      chatId: options.chatId,
    });
  }

  failEdits(count: number): void {
    this.#editFailures = count;
  }

  failNext(op: LoopbackOp, error: Error | (() => Error)): void {
    this.#next.push({ op, error });
  }

  setLatency(ms: number | Partial<Record<LoopbackOp, number>>): void {
    this.#latency = typeof ms === "number" ? { send: ms, edit: ms, delete: ms, typing: ms } : { ...ms };
  }

  latency(op: LoopbackOp): number {
    return Math.max(0, this.#latency[op] ?? 0);
  }

  clear(): void {
    this.#rateLimits = [];
    this.#editFailures = 0;
    this.#next = [];
    this.#latency = {};
    this.#penalties.clear();
  }

  /** The refusal for a call, if any (consuming one injected fault). */
  check(op: LoopbackOp, chatId: string, now: number): Refusal | undefined {
    const penaltyEnd = this.#penalties.get(chatId);
    if (penaltyEnd !== undefined && penaltyEnd > now && op !== "typing") {
      const retryAfterMs = penaltyEnd - now;
      return { error: tooManyRequests(retryAfterMs), code: "rate_limited", retryAfterMs };
    }
    const nextIndex = this.#next.findIndex((f) => f.op === op);
    if (nextIndex >= 0) {
      const fault = this.#next.splice(nextIndex, 1)[0]!;
      return { error: typeof fault.error === "function" ? fault.error() : fault.error, code: "injected" };
    }
    const limit = this.#rateLimits.find((f) => f.ops.includes(op) && (f.chatId === undefined || f.chatId === chatId));
    if (limit !== undefined) {
      limit.remaining -= 1;
      if (limit.remaining <= 0) this.#rateLimits.splice(this.#rateLimits.indexOf(limit), 1);
      if (this.enforceRetryAfter) this.#penalties.set(chatId, now + limit.retryAfterMs);
      return { error: tooManyRequests(limit.retryAfterMs), code: "rate_limited", retryAfterMs: limit.retryAfterMs };
    }
    if (op === "edit" && this.#editFailures > 0) {
      this.#editFailures -= 1;
      return { error: new PermanentSendError("Bad Request: message can't be edited", "edit_refused"), code: "edit_refused" };
    }
    return undefined;
  }
}

function tooManyRequests(retryAfterMs: number): RateLimitedError {
  return new RateLimitedError(`Too Many Requests: retry after ${retryAfterMs} ms`, retryAfterMs);
}
