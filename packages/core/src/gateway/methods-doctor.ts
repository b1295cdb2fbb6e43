// The control API's view of `openclaw doctor --fix` for the config file: what it would change, and
// applying it with the same code (the doctor's config step).
import { configText, type OpenClawPaths } from "../config/index.js";
import { lineDiff } from "../config-edit/index.js";
import { configStep, planConfigMigration } from "../doctor/config-step.js";
import type { SecretScrubber } from "../redaction/index.js";
import type { MethodHandler } from "./control-server.js";
import { clientError } from "./method-params.js";

interface Change {
  key: string;
  from: unknown;
  to: unknown;
  note: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every leaf that differs between `from` and `to` (a list, or a value that changes kind, as a whole), by dotted path. */
function leafChanges(from: unknown, to: unknown, path: string, out: Omit<Change, "note">[]): void {
  if (same(from, to)) return;
  const objects = (isObject(from) || from === undefined) && (isObject(to) || to === undefined);
  if (objects) {
    const a = (from ?? {}) as Record<string, unknown>;
    const b = (to ?? {}) as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) leafChanges(a[key], b[key], path ? `${path}.${key}` : key, out);
    return;
  }
  out.push({ key: path, from: from ?? null, to: to ?? null });
}

/** The doctor line that names `key` (the retired key or where it went), else "". */
function noteFor(key: string, lines: readonly string[]): string {
  return lines.find((l) => l.includes(key)) ?? lines.find((l) => key.startsWith(l.split(/[\s:]/)[0] ?? "\u0000")) ?? "";
}

/** `doctor.plan`, `doctor.fix`. Values and the diff are redacted. */
export function doctorMethods(deps: { paths: OpenClawPaths; scrubber: SecretScrubber }): Record<string, MethodHandler> {
  const plan = async () => {
    const p = await planConfigMigration(deps.paths);
    const leaves: Omit<Change, "note">[] = [];
    leafChanges(p.raw, p.migrated, "", leaves);
    const redacted = (v: unknown) => deps.scrubber.value(v);
    return {
      changes: leaves.map((c) => ({ key: c.key, from: redacted(c.from), to: redacted(c.to), note: noteFor(c.key, p.changes) })),
      notes: p.changes.map((l) => deps.scrubber.text(l)),
      problems: p.problems.map((l) => deps.scrubber.text(l)),
      diff: deps.scrubber.text(lineDiff(configText(deps.scrubber.value(p.raw)), configText(deps.scrubber.value(p.migrated)))),
    };
  };
  return {
    "doctor.plan": async () => {
      try {
        return await plan();
      } catch (err) {
        throw clientError(err);
      }
    },

    "doctor.fix": async () => {
      try {
        const planned = await plan();
        const result = await configStep.run({ paths: deps.paths, fix: true });
        const applied = result.changes.length > 0;
        return {
          ok: result.problems.length === 0,
          applied: result.changes.map((l) => deps.scrubber.text(l)),
          diff: applied ? planned.diff : "",
          notes: result.notes.map((l) => deps.scrubber.text(l)),
          problems: result.problems.map((l) => deps.scrubber.text(l)),
        };
      } catch (err) {
        throw clientError(err);
      }
    },
  };
}
