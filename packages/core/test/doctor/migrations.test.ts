import { describe, expect, it } from "vitest";
import { createConfigRegistry, validateConfig } from "../../src/config/index.js";
import { CASES } from "./cases.js";

const registry = createConfigRegistry();

describe("doctor migrations (before/after fixtures)", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const config = structuredClone(c.before);
      const outcome = registry.migrate(config);
      expect(config).toEqual(c.after);
      let at = 0;
      for (const expected of c.changes ?? []) {
        const idx = outcome.changes.findIndex((line, i) => i >= at && line.includes(expected));
        expect(idx, `change "${expected}" in ${JSON.stringify(outcome.changes)}`).toBeGreaterThanOrEqual(0);
        at = idx + 1;
      }
      for (const expected of c.problems ?? []) {
        expect(
          outcome.problems.some((p) => p.includes(expected)),
          `problem "${expected}" in ${JSON.stringify(outcome.problems)}`,
        ).toBe(true);
      }
      if (!c.problems) expect(outcome.problems).toEqual([]);
      // Idempotent: a second run changes nothing.
      const again = structuredClone(config);
      const second = registry.migrate(again);
      expect(second.changes).toEqual([]);
      expect(again).toEqual(config);
      // The migrated config holds no retired key and validates (unless it kept an invalid value).
      if (c.valid !== false) {
        const result = validateConfig(config, registry);
        expect(result.ok ? [] : result.problems).toEqual([]);
      } else {
        expect(validateConfig(config, registry).ok).toBe(false);
      }
    });
  }

  it("validation names each retired key and points at doctor --fix", () => {
    for (const c of CASES.filter((x) => x.valid !== false)) {
      const findings = registry.detectLegacy(structuredClone(c.before));
      expect(findings.length, c.name).toBeGreaterThan(0);
      const result = validateConfig(structuredClone(c.before), registry);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        const legacy = result.problems.filter((p) => p.kind === "legacy");
        expect(legacy.length).toBe(findings.length);
        for (const p of legacy) expect(p.message).toContain("openclaw doctor --fix");
      }
    }
  });
});
