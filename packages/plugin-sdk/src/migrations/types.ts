import type { ConfigObject } from "./object-path.js";

/** A retired key found in a config, with the message users see. */
export interface LegacyFinding {
  /** Path of the retired key, e.g. `["channels","matrix","blockStreaming"]`. */
  path: string[];
  /** What is wrong and how to fix it; names the key and `openclaw doctor --fix`. */
  message: string;
}

/** What one rule did to a config. */
export interface MigrationOutcome {
  /** One human line per change, e.g. `channels.matrix.blockStreaming -> channels.matrix.streaming.block.enabled`. */
  changes: string[];
  /** Things the rule refused to guess (invalid legacy values); the config keeps them. */
  problems: string[];
}

/**
 * A doctor migration: finds retired keys and rewrites them to the current shape.
 * Rules are declared beside the schema they serve (a channel declares its own), run in order,
 * and must be idempotent: applying a rule to its own output changes nothing.
 */
export interface LegacyKeyRule {
  /** Stable id, e.g. `telegram/streaming-aliases`. */
  id: string;
  /** One line saying what the rule migrates. */
  description: string;
  /** Reports retired keys without changing anything (used by validation and `openclaw doctor`). */
  detect(config: ConfigObject): LegacyFinding[];
  /** Rewrites the config in place (used by `openclaw doctor --fix` and gateway start). */
  apply(config: ConfigObject): MigrationOutcome;
}

/** Runs rules in order on `config` (mutated in place) and concatenates their outcomes. */
export function applyLegacyKeyRules(config: ConfigObject, rules: readonly LegacyKeyRule[]): MigrationOutcome {
  const changes: string[] = [];
  const problems: string[] = [];
  for (const rule of rules) {
    const outcome = rule.apply(config);
    changes.push(...outcome.changes);
    problems.push(...outcome.problems);
  }
  return { changes, problems };
}

/** Every retired key the rules can see in `config`. */
export function detectLegacyKeys(config: ConfigObject, rules: readonly LegacyKeyRule[]): LegacyFinding[] {
  return rules.flatMap((rule) => rule.detect(config));
}
