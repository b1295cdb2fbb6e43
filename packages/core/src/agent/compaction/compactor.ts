// Keeps a session's prompt inside its model's context window: counts every call, compacts the
// history before it would overflow (and once after a provider says it did), and tells the
// runtime when the memory flush is due.
import type { OpenClawConfig } from "../../config/index.js";
import { ProviderError, type ChatMessage, type ModelCandidate, type ModelProvider, type ToolSchema } from "../../providers/index.js";
import type { SessionEntry, SessionStore } from "../../sessions/index.js";
import type { AgentEvent } from "../events.js";
import type { LoopResult } from "../loop.js";
import type { TurnTrigger } from "../trigger.js";
import { historyFromEvents } from "../transcript.js";
import { resolveContextWindow } from "./context-window.js";
import { countingProviders, type CountedCall } from "./counting-provider.js";
import { findCut } from "./cut.js";
import { SessionEventCache } from "./event-cache.js";
import { compactedHistory, compactionEvent, liveEvents, summaryMessage, type CompactionReason } from "./history.js";
import { FLUSH_CYCLE_FIELD, flushedThisCycle } from "./memory-flush.js";
import { compactionLimits, type CompactionLimits } from "./settings.js";
import { summarize, SUMMARY_OVERHEAD_TOKENS } from "./summarize.js";
import { estimateMessageTokens, estimatePromptTokens, estimateTextTokens, TokenCalibration } from "./tokens.js";

/** The session a compaction or a guarded loop works on. */
export interface SessionContext {
  store: SessionStore;
  sessionKey: string;
  sessionId: string;
  candidates: readonly ModelCandidate[];
  createProvider(candidate: ModelCandidate): ModelProvider;
  signal: AbortSignal;
  emit?(event: AgentEvent): void;
}

/** What a compaction did. */
export type CompactionOutcome =
  | {
      status: "compacted";
      reason: CompactionReason;
      tokensBefore: number;
      tokensAfter: number;
      summarizedMessages: number;
      keptMessages: number;
    }
  /** The history is too short to summarize anything. */
  | { status: "nothing"; tokens: number }
  /** A turn is running in the session; nothing was changed. */
  | { status: "busy" }
  /** `agents.defaults.compaction.enabled` is false. */
  | { status: "disabled" };

const sum = (messages: readonly ChatMessage[]) => messages.reduce((n, m) => n + estimateMessageTokens(m), 0);

export class Compactor {
  readonly calibration = new TokenCalibration();
  private readonly running = new Map<string, number>();
  private readonly compacting = new Map<string, Promise<unknown>>();
  /** Raw tokens of the system prompt and tools at each session's last turn (for manual compactions). */
  private readonly overhead = new Map<string, number>();
  /** The transcripts of the sessions that ran lately: a turn reads only what was appended since. */
  private readonly transcripts = new SessionEventCache();

  constructor(private readonly config: OpenClawConfig) {}

  /** The limits for a model ref (its context window from config, the known table or the default). */
  limits(modelRef: string | undefined): CompactionLimits {
    return compactionLimits(this.config, resolveContextWindow(this.config, modelRef));
  }

  /** Runs `fn` (a turn) after any compaction of the session in progress, marking the session busy meanwhile. */
  async whileRunning<T>(sessionKey: string, fn: () => Promise<T>): Promise<T> {
    await this.compacting.get(sessionKey)?.catch(() => undefined);
    this.running.set(sessionKey, (this.running.get(sessionKey) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const left = (this.running.get(sessionKey) ?? 1) - 1;
      if (left > 0) this.running.set(sessionKey, left);
      else this.running.delete(sessionKey);
    }
  }

  /**
   * True when the memory flush should run before a turn whose message is `message`: the last
   * context (`contextUsedTokens` of the entry) plus the message passes the flush threshold, and the
   * session had no flush since its last compaction. Never for the flush turn itself.
   */
  flushDue(entry: SessionEntry | undefined, modelRef: string | undefined, message: string, trigger: TurnTrigger): boolean {
    if (trigger === "memory-flush" || typeof entry?.contextUsedTokens !== "number" || flushedThisCycle(entry)) return false;
    const { flushAt } = this.limits(modelRef);
    return flushAt !== undefined && entry.contextUsedTokens + this.calibration.calibrate(modelRef, estimateTextTokens(message)) > flushAt;
  }

  /** Records that the session had its flush in the current compaction cycle. */
  markFlushed(store: SessionStore, sessionKey: string, now: number): void {
    const entry = store.getEntry(sessionKey);
    store.updateEntry(sessionKey, { memoryFlushAt: now, [FLUSH_CYCLE_FIELD]: entry?.compactionCount ?? 0 });
  }

  /**
   * Runs the agent loop on the session's history as the model sees it (summary + recent
   * events), compacting first when the estimate passes the threshold (not in the flush turn, so
   * it sees everything). When the provider (or the pre-flight count) says the prompt is too
   * long, compacts and runs the loop once more; a second overflow is thrown as is. Returns the
   * loop's result and the context size at its last call (reported input + output tokens).
   */
  async runLoop(
    ctx: SessionContext & { system: string; tools: readonly ToolSchema[]; trigger: TurnTrigger },
    loop: (messages: ChatMessage[], createProvider: (candidate: ModelCandidate) => ModelProvider) => Promise<LoopResult>,
  ): Promise<{ result: LoopResult; contextTokens?: number }> {
    const ref = ctx.candidates[0]?.ref;
    const limits = this.limits(ref);
    const overhead = estimatePromptTokens({ system: ctx.system, tools: ctx.tools, messages: [] });
    this.overhead.set(ctx.sessionKey, overhead);
    let last: CountedCall | undefined;
    const create = countingProviders(ctx.createProvider, {
      calibration: this.calibration,
      windowOf: (r) => this.limits(r).contextWindow,
      onCall: (call) => {
        last = call;
      },
    });
    const history = () => compactedHistory(this.transcripts.read(ctx.store, ctx.sessionId));
    let messages = history();
    if (limits.enabled && ctx.trigger !== "memory-flush" && this.calibration.calibrate(ref, overhead + sum(messages)) > limits.threshold) {
      const outcome = await this.compactLocked(ctx, "threshold").catch((err: unknown) => {
        // The turn goes on uncompacted (the threshold leaves a reserve); an overflow still compacts below.
        if (ctx.signal.aborted) throw err;
        ctx.emit?.({ type: "error", kind: "compaction", message: `Compaction failed: ${(err as Error).message}` });
        return undefined;
      });
      if (outcome?.status === "compacted") messages = history();
    }
    const contextTokens = () => (last?.reported ? last.reported.inputTokens + last.reported.outputTokens : undefined);
    const done = (result: LoopResult) => ({ result, ...(contextTokens() !== undefined ? { contextTokens: contextTokens()! } : {}) });
    try {
      return done(await loop(messages, create));
    } catch (err) {
      if (!(err instanceof ProviderError && err.kind === "context_overflow") || !limits.enabled) throw err;
      const outcome = await this.compactLocked(ctx, "overflow");
      if (outcome.status !== "compacted") throw err;
      return done(await loop(history(), create));
    }
  }

  /**
   * Compacts a session now (`/compact`, `openclaw sessions compact`): the older turns become a
   * summary entry. `prepare` (the memory flush) runs first, while turns of the session wait.
   * Answers `busy` while a turn runs in the session, `nothing` when there is too little history,
   * `disabled` when compaction is off.
   */
  async compactNow(ctx: SessionContext, prepare?: () => Promise<unknown>): Promise<CompactionOutcome> {
    if (!this.limits(ctx.candidates[0]?.ref).enabled) return { status: "disabled" };
    if (this.running.has(ctx.sessionKey) || this.compacting.has(ctx.sessionKey)) return { status: "busy" };
    // Nothing to summarize yet: no flush turn either (it would only add to a short history).
    const plan = this.planCut(ctx, "manual");
    if (plan.cut === undefined) return { status: "nothing", tokens: plan.before };
    // Turns of the session wait for this (see whileRunning), the memory flush included.
    const pending = (async () => {
      await prepare?.();
      return this.compactLocked(ctx, "manual");
    })();
    this.compacting.set(ctx.sessionKey, pending);
    try {
      return await pending;
    } finally {
      this.compacting.delete(ctx.sessionKey);
    }
  }

  /** True while a turn runs in the session. */
  isBusy(sessionKey: string): boolean {
    return this.running.has(sessionKey);
  }

  /** Where a compaction for `reason` would cut the session's live history now (undefined: nowhere). */
  private planCut(ctx: SessionContext, reason: CompactionReason) {
    const ref = ctx.candidates[0]?.ref;
    const limits = this.limits(ref);
    const ratio = this.calibration.ratio(ref);
    const overhead = this.overhead.get(ctx.sessionKey) ?? 0;
    const events = ctx.store.readEvents(ctx.sessionId);
    const live = liveEvents(events);
    const before = this.calibration.calibrate(ref, overhead + sum(compactedHistory(events)));
    // Room for recent history once the summary is in: never more than keepRecent; after an
    // overflow, half of what seemed to fit.
    let keep = Math.min(limits.keepRecent, limits.threshold - overhead * ratio - limits.summaryMaxTokens);
    if (reason === "overflow") keep = Math.floor(keep / 2);
    const cut = findCut(live.events, Math.max(0, keep) / ratio, { force: reason !== "threshold" });
    return { ref, limits, ratio, overhead, live, before, cut };
  }

  /** Compacts without looking for a running turn: the caller holds the session. */
  private async compactLocked(ctx: SessionContext, reason: CompactionReason): Promise<CompactionOutcome> {
    const { ref, limits, ratio, overhead, live, before, cut } = this.planCut(ctx, reason);
    if (cut === undefined) return { status: "nothing", tokens: before };
    const older = historyFromEvents(live.events.slice(0, cut));
    const kept = historyFromEvents(live.events.slice(cut));
    const { summary, modelRef } = await summarize({
      candidates: ctx.candidates,
      createProvider: countingProviders(ctx.createProvider, {
        calibration: this.calibration,
        windowOf: (r) => this.limits(r).contextWindow,
      }),
      ...(live.summary !== undefined ? { previousSummary: live.summary } : {}),
      messages: older,
      maxTokens: limits.summaryMaxTokens,
      chunkTokens: Math.max(500, Math.floor((limits.threshold - limits.summaryMaxTokens) / ratio) - SUMMARY_OVERHEAD_TOKENS),
      signal: ctx.signal,
    });
    const after = this.calibration.calibrate(ref, overhead + estimateMessageTokens(summaryMessage(summary)) + sum(kept));
    const firstKept = live.events[cut]!.event.id;
    ctx.store.appendEvents(ctx.sessionId, [
      compactionEvent({
        summary,
        firstKeptEntryId: firstKept,
        tokensBefore: before,
        details: { reason, tokensAfter: after, summarizedMessages: older.length, ...(modelRef ? { model: modelRef } : {}) },
      }),
    ]);
    const entry = ctx.store.getEntry(ctx.sessionKey);
    ctx.store.updateEntry(ctx.sessionKey, { compactionCount: (entry?.compactionCount ?? 0) + 1, contextUsedTokens: after });
    ctx.emit?.({ type: "compaction", reason, tokensBefore: before, tokensAfter: after });
    return {
      status: "compacted",
      reason,
      tokensBefore: before,
      tokensAfter: after,
      summarizedMessages: older.length,
      keptMessages: kept.length,
    };
  }
}
