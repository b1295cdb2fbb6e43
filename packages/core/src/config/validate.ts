import { formatPath, isPlainObject, type LegacyFinding } from "@openclaw/plugin-sdk/config";
import { z } from "zod";
import { UserError } from "./paths.js";
import type { ConfigRegistry } from "./registry.js";
import { senderIdProblems } from "./sender-id-problems.js";
import { looksWrittenByReference, REFERENCE_SIDE_FILE } from "./reference-side-file.js";
import { unsupportedKey, unsupportedValue } from "./unsupported-keys.js";

/** One thing wrong with a config: where, what, and how to fix it. */
export interface ConfigProblem {
  /** Dotted config path, e.g. `channels.<id>.blockStreaming` (empty for the root). */
  path: string;
  message: string;
  /** What the user should do; included in the printed line. */
  fix?: string;
  /** `"legacy"` for a retired key that `openclaw doctor --fix` migrates. */
  kind: "legacy" | "invalid";
  /**
   * For a key the schema does not know (not one of the reference keys refused with a reason):
   * its path as segments. Doctor moves such keys of a reference-written config to the side file.
   */
  unknownKey?: readonly PropertyKey[];
}

export type ValidationResult<T> = { ok: true; config: T } | { ok: false; problems: ConfigProblem[] };

/** A config that cannot be used; the message lists every problem, the file and the fixes. */
export class ConfigError extends UserError {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(formatProblems(file, problems), 1);
    this.name = "ConfigError";
  }
}

/** Renders problems the way every command prints them. */
export function formatProblems(file: string, problems: readonly ConfigProblem[]): string {
  const lines = [`Invalid config in ${file} (${problems.length} problem${problems.length === 1 ? "" : "s"}):`];
  for (const p of problems) {
    const where = p.path || "(root)";
    lines.push(`  - ${where}: ${p.message}${p.fix ? ` Fix: ${p.fix}` : ""}`);
  }
  if (problems.some((p) => p.kind === "legacy")) {
    lines.push("Retired keys are rewritten by `openclaw doctor --fix` (it keeps a backup and prints each change).");
  }
  lines.push(`See docs/configuration-reference.md for every key; check again with \`openclaw config validate\`.`);
  return lines.join("\n");
}

function startsWith(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => String(path[i]) === String(seg));
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  return `${typeof value} ${String(value)}`;
}

function levenshtein(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/** Keys the schema allows at `path`, read from the JSON Schema (only computed on error). */
function knownKeysAt(jsonSchema: unknown, path: readonly PropertyKey[]): string[] {
  let node: any = jsonSchema;
  for (const seg of path) {
    if (!node) return [];
    if (node.anyOf) node = node.anyOf.find((n: any) => n.type === "object") ?? node.anyOf[0];
    if (node.properties && typeof seg === "string" && node.properties[seg]) node = node.properties[seg];
    else if (node.additionalProperties && typeof node.additionalProperties === "object") node = node.additionalProperties;
    else if (node.items && typeof seg === "number") node = node.items;
    else return [];
  }
  if (node?.anyOf) node = node.anyOf.find((n: any) => n.type === "object");
  return node?.properties ? Object.keys(node.properties) : [];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: any = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = cur[seg as any];
  }
  return cur;
}

function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  registry: ConfigRegistry,
  legacy: readonly LegacyFinding[],
): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  let jsonSchema: unknown;
  const schemaJson = () => (jsonSchema ??= z.toJSONSchema(registry.schema, { io: "input", unrepresentable: "any" }));
  const isLegacy = (path: readonly PropertyKey[]) => legacy.some((f) => startsWith(path, f.path));
  const channelIds = registry.channels.map((c) => c.id);
  const fromReference = looksWrittenByReference(raw);
  const sideFileFix = `run \`openclaw doctor --fix\` to move it to ${REFERENCE_SIDE_FILE} next to the config (this openclaw does not support it), or remove it.`;

  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const full = [...path, key];
        if (isLegacy(full)) continue;
        const where = formatPath(full as (string | number)[]);
        const unsupported = unsupportedKey(full);
        if (unsupported) {
          out.push({ kind: "invalid", path: where, ...unsupported });
          continue;
        }
        if (path.length === 1 && path[0] === "channels") {
          out.push({
            kind: "invalid",
            path: where,
            unknownKey: full,
            message: `no channel named "${key}" is known.`,
            fix: fromReference
              ? sideFileFix
              : `use one of: ${channelIds.join(", ")}; a channel from a third-party plugin needs that plugin installed (\`openclaw plugins install <its folder or .tgz tarball>\`; \`openclaw plugins list\` shows what is installed).`,
          });
          continue;
        }
        const known = knownKeysAt(schemaJson(), path);
        const close = known
          .map((k) => ({ k, d: levenshtein(k.toLowerCase(), key.toLowerCase()) }))
          .filter((x) => x.d <= Math.max(2, Math.floor(key.length / 3)))
          .sort((a, b) => a.d - b.d)[0];
        out.push({
          kind: "invalid",
          path: where,
          unknownKey: full,
          message: "unknown key.",
          fix: fromReference
            ? sideFileFix
            : close
              ? `did you mean "${close.k}"? Rename or remove it.`
              : `remove it${known.length ? ` (allowed here: ${known.join(", ")})` : ""}.`,
        });
      }
      continue;
    }
    if (isLegacy(path)) continue;
    const where = formatPath(path as (string | number)[]);
    const actual = valueAt(raw, path);
    switch (issue.code) {
      case "invalid_type":
        out.push({
          kind: "invalid",
          path: where,
          message:
            actual === undefined
              ? `is required (expected ${issue.expected}).`
              : `expected ${issue.expected}, got ${describeValue(actual)}.`,
          fix:
            actual === undefined
              ? `add ${where}.`
              : `set ${where} to ${issue.expected === "int" ? "a whole number" : `a ${issue.expected}`}.`,
        });
        break;
      case "invalid_value": {
        const unsupported = unsupportedValue(path, actual);
        if (unsupported) {
          out.push({ kind: "invalid", path: where, message: `${describeValue(actual)}: ${unsupported.message}`, fix: unsupported.fix });
          break;
        }
        out.push({
          kind: "invalid",
          path: where,
          message: `${describeValue(actual)} is not allowed.`,
          fix: `use one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}.`,
        });
        break;
      }
      case "invalid_union":
        out.push({
          kind: "invalid",
          path: where,
          message: `${describeValue(actual)} does not fit.`,
          fix: `see ${where} in docs/configuration-reference.md for the accepted forms.`,
        });
        break;
      case "too_small":
      case "too_big":
      case "invalid_format":
      case "not_multiple_of":
        out.push({ kind: "invalid", path: where, message: `${describeValue(actual)}: ${issue.message}.`, fix: `change ${where}.` });
        break;
      case "invalid_key":
        out.push({
          kind: "invalid",
          path: where,
          message: `the key is not allowed: ${issue.issues.map((i) => i.message).join("; ")}.`,
          fix: "rename it.",
        });
        break;
      case "custom": {
        // Refinements may carry their fix in `params.fix` (e.g. the SDK's sender-id check).
        const fix = (issue.params as { fix?: unknown } | undefined)?.fix;
        out.push({
          kind: "invalid",
          path: where,
          message: `${issue.message}.`,
          ...(typeof fix === "string" ? { fix } : {}),
        });
        break;
      }
      default:
        out.push({ kind: "invalid", path: where, message: `${issue.message}.` });
    }
  }
  return out;
}

/**
 * Validates a resolved config (after `$include` and `${VAR}` substitution). Retired keys are
 * reported once each, pointing at `openclaw doctor --fix`, and the schema errors they cause are
 * not repeated. Sender-list entries that can never match (see `senderIdProblems`) are errors too.
 * On success the config comes back with every default applied.
 */
export function validateConfig(raw: unknown, registry: ConfigRegistry): ValidationResult<z.output<ConfigSchema>> {
  if (!isPlainObject(raw)) {
    return {
      ok: false,
      problems: [
        {
          kind: "invalid",
          path: "",
          message: `the config must be an object, got ${describeValue(raw)}.`,
          fix: "wrap the settings in { … }.",
        },
      ],
    };
  }
  const legacy = registry.detectLegacy(raw);
  const legacyProblems: ConfigProblem[] = legacy.map((f) => ({
    kind: "legacy",
    path: formatPath(f.path),
    message: f.message.startsWith(formatPath(f.path)) ? f.message.slice(formatPath(f.path).length).replace(/^[:\s]+/, "") : f.message,
  }));
  // A config is parsed once per process (or reload): zod's JIT fast path (code generated per
  // object schema with `new Function`) costs more to build than it saves on a single parse.
  const parsed = registry.schema.safeParse(raw, { jitless: true });
  const senderProblems = senderIdProblems(raw, (channel) => registry.channels.find((c) => c.id === channel)?.ids);
  if (parsed.success && legacyProblems.length === 0 && senderProblems.length === 0) return { ok: true, config: parsed.data };
  const schemaProblems = parsed.success ? [] : problemsFromIssues(parsed.error.issues, raw, registry, legacy);
  return { ok: false, problems: [...legacyProblems, ...schemaProblems, ...senderProblems] };
}

type ConfigSchema = ConfigRegistry["schema"];
