import { type FeishuAnswer, errorAnswer, statusForCode } from "./envelope.js";
import type { FakeFeishuFailResponse } from "./types.js";

/** Injected HTTP failures (`failNext`), taken in the order they were added. */
export class FailPlan {
  private rules: Array<{ path: RegExp; response: FakeFeishuFailResponse; remaining: number }> = [];

  add(path: RegExp, response: FakeFeishuFailResponse, times = 1): void {
    this.rules.push({ path, response, remaining: times });
  }

  /** The injected answer for this request path (with query), if a rule matches; spends one use. */
  take(path: string): FeishuAnswer | undefined {
    const rule = this.rules.find((r) => r.remaining > 0 && new RegExp(r.path.source, r.path.flags.replace("g", "")).test(path));
    if (!rule) return undefined;
    rule.remaining -= 1;
    this.rules = this.rules.filter((r) => r.remaining > 0);
    const { code, msg, httpStatus } = rule.response;
    return errorAnswer(code, msg ?? "injected failure", httpStatus ?? statusForCode(code));
  }
}
