// `@openclaw/testkit/conformance`: registers the channel conformance suite with vitest.
import { afterAll, beforeAll, describe, it } from "vitest";
import { defineChannelConformance, missingPower, type ChannelConformance } from "./define.js";
import type { ConformanceSession } from "./host.js";
import type { ChannelConformanceSpec } from "./types.js";

/** The vitest functions the suite registers with (pass your own to use another vitest instance). */
export interface ConformanceTestApi {
  describe: (name: string, body: () => void) => void;
  it: {
    (name: string, fn: (context: { skip(note?: string): void }) => Promise<void>, timeout?: number): void;
    skip: (name: string, fn: () => Promise<void>) => void;
  };
  beforeAll: (fn: () => Promise<void>, timeout?: number) => void;
  afterAll: (fn: () => Promise<void>, timeout?: number) => void;
}

/**
 * Registers the conformance suite of one channel as a vitest `describe` block named
 * `channel conformance: <name>`: the account starts in `beforeAll`, each case is an `it` (skipped
 * ones show their reason, and so do cases needing a power the channel lacks: edits, a native
 * stream, files, typing), and the account is stopped in `afterAll` (which fails when `start` does
 * not resolve after its signal fired). Call it at the top level of a test file. See
 * `defineChannelConformance` for the cases.
 */
export function runChannelConformance<Account>(
  spec: ChannelConformanceSpec<Account> | ChannelConformance,
  api: ConformanceTestApi = { describe, it, beforeAll, afterAll },
): void {
  const suite = "cases" in spec ? spec : defineChannelConformance(spec);
  // Generous per-case budget: a case waits at most a few `timeoutMs` in a row.
  const caseTimeout = suite.timeoutMs * 3;
  api.describe(`channel conformance: ${suite.name}`, () => {
    let session: ConformanceSession | undefined;
    api.beforeAll(async () => {
      session = await suite.start();
    }, suite.timeoutMs + 5000);
    api.afterAll(async () => {
      await session?.stop();
    }, suite.timeoutMs + 5000);
    for (const c of suite.cases) {
      if (c.skip !== undefined) {
        api.it.skip(`${c.id}: ${c.title} (skipped: ${c.skip})`, async () => undefined);
        continue;
      }
      api.it(
        `${c.id}: ${c.title}`,
        async (context) => {
          if (session === undefined) throw new Error("the conformance account did not start");
          const missing = missingPower(c, session);
          if (missing !== undefined) return context.skip(missing);
          await c.run(session);
        },
        caseTimeout,
      );
    }
  });
}

export { defineChannelConformance, CONFORMANCE_CASES } from "./define.js";
export type { ChannelConformance, ConformanceCase, PlannedCase } from "./define.js";
export type { ConformanceSession, OutboundCallRecord } from "./host.js";
export type * from "./types.js";
