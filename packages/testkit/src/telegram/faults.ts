import { FakeTelegramApiError, tooManyRequests } from "./errors.js";
import type { FakeRateLimit, TgErrorBody } from "./types.js";

interface ErrorRule {
  method?: string;
  remaining: number;
  error: () => FakeTelegramApiError;
}

interface DropRule {
  method?: string;
  remaining: number;
  applyFirst: boolean;
}

function matches(rule: { method?: string }, method: string): boolean {
  return rule.method === undefined || rule.method.toLowerCase() === method.toLowerCase();
}

/** Methods that count against a chat's flood budget: sends, edits, copies and forwards, not chat actions. */
export function isRateLimited(method: string): boolean {
  const m = method.toLowerCase();
  if (m === "sendchataction") return false;
  return m.startsWith("send") || m.startsWith("edit") || m === "copymessage" || m === "forwardmessage";
}

/** Injected errors, dropped connections and per-chat flood control. */
export class FaultPlan {
  private errors: ErrorRule[] = [];
  private drops: DropRule[] = [];
  private buckets = new Map<string, { tokens: number; at: number }>();
  private limit: Required<FakeRateLimit> | undefined;

  constructor(private readonly initialLimit: FakeRateLimit | false | undefined) {
    this.setRateLimit(initialLimit ?? false);
  }

  /** Back to the start-up state: no rules, the configured rate limit, full buckets. */
  clear(): void {
    this.errors = [];
    this.drops = [];
    this.buckets.clear();
    this.setRateLimit(this.initialLimit ?? false);
  }

  setRateLimit(limit: FakeRateLimit | false): void {
    this.limit = limit ? { perChatPerSecond: limit.perChatPerSecond ?? 1, burst: limit.burst ?? 3 } : undefined;
    this.buckets.clear();
  }

  addError(spec: {
    method?: string;
    count: number;
    error_code: number;
    description: string;
    parameters?: TgErrorBody["parameters"];
  }): void {
    const rule: ErrorRule = {
      remaining: spec.count,
      error: () => new FakeTelegramApiError(spec.error_code, spec.description, spec.parameters),
    };
    if (spec.method !== undefined) rule.method = spec.method;
    this.errors.push(rule);
  }

  add429(spec: { method?: string; count: number; retryAfter: number }): void {
    const rule: ErrorRule = { remaining: spec.count, error: () => tooManyRequests(spec.retryAfter) };
    if (spec.method !== undefined) rule.method = spec.method;
    this.errors.push(rule);
  }

  addDrop(spec: { method?: string; count: number; applyFirst?: boolean }): void {
    const rule: DropRule = { remaining: spec.count, applyFirst: spec.applyFirst ?? false };
    if (spec.method !== undefined) rule.method = spec.method;
    this.drops.push(rule);
  }

  /** Takes the first matching drop rule for this call, if any. */
  takeDrop(method: string): { applyFirst: boolean } | undefined {
    const rule = this.drops.find((r) => r.remaining > 0 && matches(r, method));
    if (!rule) return undefined;
    rule.remaining -= 1;
    return { applyFirst: rule.applyFirst };
  }

  /** Takes the first matching injected error for this call, if any. */
  takeError(method: string): FakeTelegramApiError | undefined {
    const rule = this.errors.find((r) => r.remaining > 0 && matches(r, method));
    if (!rule) return undefined;
    rule.remaining -= 1;
    return rule.error();
  }

  /**
   * Spends one token from the chat's bucket (capacity `burst`, refilled at `perChatPerSecond`),
   * or returns the 429 to answer with; `retry_after` is the whole seconds until a token is back.
   */
  checkRate(method: string, chatKey: string | undefined): FakeTelegramApiError | undefined {
    if (!this.limit || chatKey === undefined || !isRateLimited(method)) return undefined;
    const now = Date.now();
    const { perChatPerSecond: rate, burst } = this.limit;
    const bucket = this.buckets.get(chatKey) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(chatKey, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return tooManyRequests(Math.max(1, Math.ceil((1 - bucket.tokens) / rate)));
  }
}
