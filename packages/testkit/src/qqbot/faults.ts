import type { QQAnswer } from "./errors.js";
import type { FakeQQFailSpec } from "./types.js";

/** Injected HTTP failures (`failNext`), taken in the order they were added. */
export class FailPlan {
  private rules: (FakeQQFailSpec & { remaining: number })[] = [];

  add(spec: FakeQQFailSpec): void {
    this.rules.push({ ...spec, remaining: spec.count ?? 1 });
  }

  /** The injected answer for this request, if a rule matches (and spends one of its count). */
  take(method: string, path: string): QQAnswer | undefined {
    const rule = this.rules.find(
      (r) =>
        r.remaining > 0 &&
        (r.method === undefined || r.method.toUpperCase() === method.toUpperCase()) &&
        (r.pathIncludes === undefined || path.includes(r.pathIncludes)),
    );
    if (!rule) return undefined;
    rule.remaining -= 1;
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return { status: rule.status, body: rule.body ?? { code: rule.status, message: "injected failure" } };
  }
}
