import type { OpenClawConfig } from "../../config/index.js";

/** The compaction limits in force for one model, in tokens. */
export interface CompactionLimits {
  enabled: boolean;
  contextWindow: number;
  /** Compact once the prompt estimate passes this: the window minus the reply reserve. */
  threshold: number;
  /** Recent history kept word for word. */
  keepRecent: number;
  /** Longest summary asked of the model. */
  summaryMaxTokens: number;
  /** Run the memory flush once the last context passes this (undefined: no flush). */
  flushAt?: number;
}

/**
 * `agents.defaults.compaction` applied to a context window. The configured token amounts are
 * capped by the window so small models still work: the reserve at 25% of the window, the kept
 * history at 30%, the flush's soft threshold at 10%; the summary gets at most 15% (256–4096).
 */
export function compactionLimits(config: OpenClawConfig, contextWindow: number): CompactionLimits {
  const c = config.agents.defaults.compaction;
  const reserve = Math.min(c.reserveTokens, Math.floor(contextWindow / 4));
  const threshold = contextWindow - reserve;
  const soft = Math.min(c.memoryFlush.softThresholdTokens, Math.floor(contextWindow / 10));
  return {
    enabled: c.enabled,
    contextWindow,
    threshold,
    keepRecent: Math.min(c.keepRecentTokens, Math.floor(contextWindow * 0.3)),
    summaryMaxTokens: Math.min(4096, Math.max(256, Math.floor(contextWindow * 0.15))),
    ...(c.enabled && c.memoryFlush.enabled ? { flushAt: threshold - soft } : {}),
  };
}
