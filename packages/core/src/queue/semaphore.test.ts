import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

describe("Semaphore", () => {
  it("grants slots first come first served and skips waiters that gave up", async () => {
    const sem = new Semaphore(1);
    const order: string[] = [];
    const first = await sem.acquire();
    const controller = new AbortController();
    const gaveUp = sem.acquire(controller.signal).then(
      () => order.push("gave-up"),
      () => order.push("aborted"),
    );
    const second = sem.acquire().then((release) => (order.push("second"), release));
    controller.abort(new Error("stop"));
    await gaveUp;
    expect(sem.waiting).toBe(1);
    first();
    first(); // idempotent
    (await second)();
    expect(order).toEqual(["aborted", "second"]);
    expect(sem.active).toBe(0);
  });
});
