import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { findAgentEntry, resolveAgentId } from "../agents/index.js";
import type { OpenClawConfig, OpenClawPaths } from "../config/index.js";
import { DatabaseCorruptError, isCorruptionError, locateDamage, sessionDatabase } from "../databases/index.js";
import { dailyMemoryFiles } from "../memory/index.js";
import {
  createProviderFactory,
  failureCategory,
  noModelConfiguredMessage,
  ProviderError,
  resolveModelSelection,
  type ModelCandidate,
  type ModelProvider,
} from "../providers/index.js";
import {
  buildSessionKey,
  matchResetTrigger,
  openAgentStore,
  parseSessionKey,
  resolveSessionConfig,
  type SessionOrigin,
  type SessionStore,
  type TranscriptEventInput,
} from "../sessions/index.js";
import { isSilentReply } from "../streaming/index.js";
import type { AgentTool } from "../tool-contract/index.js";
import type { BrowserManager, CronToolHost, GatewayToolHost, ProcessRegistry } from "../tools/index.js";
import { assembleProjectContext, ensureWorkspace, FIRST_RUN_GUIDANCE, resolveWorkspaceSettings } from "../workspace/index.js";
import { getsDailyNotes } from "../workspace/session-kind.js";
import { Compactor, flushedThisCycle, memoryFlushPrompt, type CompactionOutcome } from "./compaction/index.js";
import type { AgentEvent, RunStatus, Usage } from "./events.js";
import { runAgentLoop, type SteeringText } from "./loop.js";
import { resolveSessionWorkspace } from "./session-workspace.js";
import { replayRecordedTurn } from "./resume.js";
import { chatFailureNotice, RecentRunErrors, type RunErrorRecord } from "./run-errors.js";
import { createSessionTools } from "./session-tools.js";
import { contextWindowOf, overrideOf, sessionCandidates, validateModelChoice, type SessionModel } from "./session-model.js";
import { type SkillCommand, SkillSnapshots } from "./skill-snapshots.js";
import { buildSystemPrompt, type PromptMode } from "./system-prompt.js";
import { loopRecordEvent, recordedInbound, userMessageEvent } from "./transcript.js";
import type { TurnTrigger } from "./trigger.js";

export interface AgentRuntimeOptions {
  config: OpenClawConfig;
  paths: OpenClawPaths;
  env?: NodeJS.ProcessEnv;
  /** Builds providers; default: from `models.providers` and the built-in ones. */
  createProvider?: (candidate: ModelCandidate) => ModelProvider;
  now?: () => Date;
  /** The `openclaw` version for the runtime line. */
  version?: string;
  /** Extra tools per turn (session tools, the message tool), filtered by the same tool policy. */
  extraTools?: (ctx: { runtime: AgentRuntime; agentId: string; sessionKey: string }) => AgentTool[];
  /** Called once per failed run with the full detail (the gateway logs it); errors it throws are ignored. */
  onRunError?: (record: RunErrorRecord) => void;
  /** What the owner's `gateway` tool reloads and validates with; default: the config file only, no reload. */
  gatewayHost?: GatewayToolHost;
  /** The running gateway's cron scheduler for the `cron` tool; default: jobs are written to the state database. */
  cronHost?: CronToolHost;
}

export interface TurnRequest {
  /** Default: the default agent. */
  agentId?: string;
  /** Default: the agent's main session. */
  sessionKey?: string;
  message: string;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Messages that arrive mid-run; drained after each tool batch, before the next model call. */
  drainSteering?: () => readonly SteeringText[];
  /**
   * Inbox keys of the channel messages `message` stands for. They are recorded with the user
   * entry; when an entry with the same keys is already in the session (the turn is run again
   * after a crash), nothing is recorded again: a turn that had answered replays its answer
   * without calling the model, one cut short continues from the history. The last key is the
   * message whose reply this turn is (the queue puts it there), the others joined it.
   */
  inboundKeys?: readonly string[];
  /** Default "full"; sub-agent sessions use "minimal". */
  promptMode?: PromptMode;
  origin?: SessionOrigin;
  /** False for system, heartbeat and cron turns: they do not count as user interaction. */
  touch?: boolean;
  /** Why the turn runs (default "user"); only "heartbeat" turns get HEARTBEAT.md in their Project Context. Recorded on the opening entry when not "user". */
  trigger?: TurnTrigger;
}

export interface TurnResult {
  runId: string;
  status: RunStatus;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  /** The reply text (empty when aborted). */
  text: string;
  /** The model answered NO_REPLY: deliver nothing. */
  silent: boolean;
  usage: Usage;
  modelRef?: string;
  error?: { kind: string; message: string };
}

// Asked once per process: both cost a system call or an ICU lookup per turn otherwise.
let cachedZone: string | undefined;
const localTimeZone = () => (cachedZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);
let cachedHost: string | undefined;
const hostName = () => (cachedHost ??= hostname());

/**
 * Runs agent turns: resolves the session (and its reset policy), prepares the workspace, builds
 * the prompt from the bootstrap files, skills and history, runs the loop with the allowed
 * tools, and records everything in the agent's session store. One runtime per process owns the
 * stores (one writer each).
 */
export class AgentRuntime {
  readonly config: OpenClawConfig;
  readonly paths: OpenClawPaths;
  private readonly env: NodeJS.ProcessEnv;
  private createProvider: (candidate: ModelCandidate) => ModelProvider;
  private readonly now: () => Date;
  private readonly version: string;
  private readonly stores = new Map<string, SessionStore>();
  private readonly ensured = new Map<string, Promise<{ bootstrapPending: boolean }>>();
  private readonly processes = new Map<string, ProcessRegistry>();
  /** The agents' browsers (browser tool); created with the first tools, closed by {@link close}. */
  private browsers: BrowserManager | undefined;
  private readonly toolCache = new Map<string, AgentTool[]>();
  private readonly sessionInstructions = new Map<string, string>();
  private readonly skills: SkillSnapshots;
  private readonly failures = new RecentRunErrors();
  private readonly compaction: Compactor;

  constructor(private readonly options: AgentRuntimeOptions) {
    this.config = options.config;
    this.paths = options.paths;
    this.env = options.env ?? process.env;
    this.createProvider =
      options.createProvider ?? createProviderFactory(options.config, { env: this.env, configPath: options.paths.configPath });
    this.now = options.now ?? (() => new Date());
    this.version = options.version ?? "0.0.0";
    this.skills = new SkillSnapshots({ config: this.config, stateDir: this.paths.stateDir, env: this.env });
    this.compaction = new Compactor(this.config);
  }

  /**
   * Call after the contents of `config` were replaced (a config reload): drops the tools built per
   * session and the providers built from `models.providers`, so the next turn uses the new agent,
   * model and tool settings. Session stores keep their settings until the next start.
   */
  configChanged(): void {
    this.toolCache.clear();
    if (!this.options.createProvider) {
      this.createProvider = createProviderFactory(this.config, { env: this.env, configPath: this.paths.configPath });
    }
  }

  /** The agent's session store, opened on first use (this process becomes its single writer). */
  store(agentId: string): SessionStore {
    let store = this.stores.get(agentId);
    if (!store) {
      // Group commit: concurrent turns share one commit per event-loop turn; the turn awaits
      // `committed()` before anything that must not precede durability (run_start, final, tools).
      store = openAgentStore({
        stateDir: this.paths.stateDir,
        agentId,
        sessionConfig: resolveSessionConfig(this.config),
        groupCommit: true,
      });
      this.stores.set(agentId, store);
    }
    return store;
  }

  /**
   * Standing instructions for one session, added to its system prompt (a group's
   * `systemPrompt` from the channel config). `undefined` removes them.
   */
  setSessionInstructions(sessionKey: string, text: string | undefined): void {
    const key = sessionKey.toLowerCase();
    if (text?.trim()) this.sessionInstructions.set(key, text.trim());
    else this.sessionInstructions.delete(key);
  }

  resolveAgent(agentId?: string): string {
    return resolveAgentId(this.config, agentId, this.paths.configPath);
  }

  mainSessionKey(agentId: string): string {
    return buildSessionKey({ kind: "main", agentId, mainKey: this.config.session.mainKey });
  }

  /** The last failed runs (at most 20), newest first, with the full detail: for `openclaw status`, never for a chat. */
  recentErrors(): RunErrorRecord[] {
    return this.failures.list();
  }

  private reportFailure(record: Omit<RunErrorRecord, "at">): void {
    const full = { at: this.now().getTime(), ...record };
    this.failures.add(full);
    try {
      this.options.onRunError?.(full);
    } catch {
      // A failing observer must not change the run's outcome.
    }
  }

  /**
   * Runs one turn. A session database found damaged (on open or mid-turn) rejects the turn with a
   * one-line {@link DatabaseCorruptError} naming the file and the fix; SQLite's own "database disk
   * image is malformed" names no file.
   */
  async runTurn(request: TurnRequest): Promise<TurnResult> {
    try {
      const key = (request.sessionKey ?? this.mainSessionKey(this.resolveAgent(request.agentId))).toLowerCase();
      return await this.compaction.whileRunning(key, () => this.runTurnUnchecked(request));
    } catch (err) {
      if (err instanceof DatabaseCorruptError) throw new DatabaseCorruptError(err.damaged, { oneLine: true });
      if (!isCorruptionError(err)) throw err;
      const { stateDir } = this.paths;
      const likely = sessionDatabase(stateDir, this.resolveAgent(request.agentId));
      throw new DatabaseCorruptError(locateDamage(stateDir, likely, err), { oneLine: true });
    }
  }

  private async runTurnUnchecked(request: TurnRequest): Promise<TurnResult> {
    const started = Date.now();
    const runId = randomUUID();
    const agentId = this.resolveAgent(request.agentId);
    const sessionKey = (request.sessionKey ?? this.mainSessionKey(agentId)).toLowerCase();
    const emit = (event: AgentEvent) => request.onEvent?.(event);
    const store = this.store(agentId);
    const nowMs = this.now().getTime();
    const usage: Usage = { inputTokens: 0, outputTokens: 0 };

    let message = request.message;
    const trigger = matchResetTrigger(message, this.config.session.resetTriggers);
    if (trigger) message = trigger.remainder;
    const turnTrigger = request.trigger ?? "user";
    const keys = request.inboundKeys ?? [];
    const record = (sessionId: string, entries: Parameters<typeof store.appendEvents>[1]) => store.appendEvents(sessionId, entries);
    const openingEvent = {
      ...userMessageEvent(message, nowMs, { keys }),
      ...(turnTrigger !== "user" ? { trigger: turnTrigger } : {}),
    };
    const recordOpening = (sessionId: string) =>
      record(sessionId, [
        { ...openingEvent, ...(keys.length > 0 ? { idempotencyKey: `inbound:${sessionId}:${keys.join(",")}` } : {}) },
      ])[0]!;
    // The session row, its entry and the user's message go to disk in one transaction (unless the
    // memory flush must run between them).
    const resolved = store.transaction(() => {
      const session = trigger
        ? store.resetSession(sessionKey, trigger.trigger, { now: nowMs, ...(request.origin ? { origin: request.origin } : {}) })
        : store.getOrCreateSession(sessionKey, {
            now: nowMs,
            touch: request.touch ?? true,
            ...(request.origin ? { origin: request.origin } : {}),
          });
      if (trigger && message.trim() === "") return { session };
      const before = store.getEntry(sessionKey);
      const flushDue = this.compaction.flushDue(before, sessionCandidates(this.config, agentId, before)[0]?.ref, message, turnTrigger);
      return flushDue ? { session } : { session, opening: recordOpening(session.sessionId) };
    });
    const { session } = resolved;
    const base = { runId, agentId, sessionKey, sessionId: session.sessionId };
    // The inbox marks its message started on run_start: the opening entry must be on disk first.
    await store.committed();
    emit({ type: "run_start", ...base, newSession: session.isNew });
    const finish = (status: RunStatus, text: string, extra: Partial<TurnResult> = {}): TurnResult => {
      emit({ type: "run_end", runId, status, usage, durationMs: Date.now() - started });
      return { ...base, status, text, silent: false, usage, ...extra };
    };

    if (trigger && message.trim() === "") {
      const text = "Started a new session.";
      await store.committed();
      emit({ type: "final", text, silent: false });
      return finish("ok", text);
    }

    let opening = resolved.opening;
    if (!opening) {
      // Not before a turn run again after a crash: its message is in the transcript already.
      const recorded = keys.length > 0 ? recordedInbound(store.readEvents(session.sessionId)) : undefined;
      if (!keys.some((k) => recorded?.has(k))) await this.memoryFlush(agentId, sessionKey, request.signal);
      opening = recordOpening(session.sessionId);
    }
    if (opening.duplicate) {
      const replayed = replayRecordedTurn(store.readEvents(session.sessionId, { afterSeq: opening.seq }), opening.seq, emit);
      if (replayed) return finish("ok", replayed.text, { silent: replayed.silent });
    }

    const candidates = sessionCandidates(this.config, agentId, store.getEntry(sessionKey));
    if (candidates.length === 0) {
      const text = noModelConfiguredMessage(this.paths.configPath);
      record(session.sessionId, [{ type: "custom", customType: "notice", data: { text } }]);
      emit({ type: "error", kind: "no_model", message: text });
      this.reportFailure({ runId, agentId, sessionKey, category: "other", kind: "no_model", message: text });
      await store.committed();
      emit({ type: "final", text, silent: false });
      return finish("error", text, { error: { kind: "no_model", message: text } });
    }

    const settings = resolveWorkspaceSettings(this.config, agentId, this.paths, { env: this.env });
    const controller = new AbortController();
    const timeoutMs =
      (findAgentEntry<{ timeoutSeconds?: number }>(this.config, agentId)?.timeoutSeconds ?? this.config.agents.defaults.timeoutSeconds) *
      1000;
    const timer = setTimeout(() => controller.abort(new DOMException("run timed out", "TimeoutError")), timeoutMs);
    timer.unref?.();
    const onAbort = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted) onAbort();

    let deferred: TranscriptEventInput | undefined;
    const flushDeferred = () => {
      if (!deferred) return;
      const event = deferred;
      deferred = undefined;
      record(session.sessionId, [event]);
    };
    try {
      const { bootstrapPending } = await this.ensureWorkspaceOnce(settings.workspaceDir, settings.skipBootstrap);
      const place = await resolveSessionWorkspace({
        config: this.config,
        paths: this.paths,
        env: this.env,
        agentId,
        sessionKey,
        agentWorkspaceDir: settings.workspaceDir,
      });
      const keyKind = parseSessionKey(sessionKey);
      const mode = request.promptMode ?? (keyKind.kind === "subagent" ? "minimal" : "full");
      const context = await assembleProjectContext(place.workspaceDir, {
        sessionKey,
        heartbeat: request.trigger === "heartbeat",
        maxChars: settings.bootstrapMaxChars,
        totalMaxChars: settings.bootstrapTotalMaxChars,
      });
      const agentName = findAgentEntry<{ identity?: { name?: string } }>(this.config, agentId)?.identity?.name;
      const skills = await this.skills.forSession(agentId, settings.workspaceDir, session.sessionId);
      const tools = await this.toolsFor(agentId, sessionKey, candidates[0]!.ref);
      const system = buildSystemPrompt({
        mode,
        ...(agentName ? { agentName } : {}),
        tools,
        skillsSection: skills.section,
        workspaceDir: place.workspaceDir,
        ...(place.promptNote ? { workspaceNote: place.promptNote } : {}),
        projectContext: context.text,
        ...(this.sessionInstructions.has(sessionKey) ? { chatInstructions: this.sessionInstructions.get(sessionKey)! } : {}),
        ...(bootstrapPending && context.bootstrapPending ? { firstRunGuidance: FIRST_RUN_GUIDANCE } : {}),
        ...(mode === "full" && getsDailyNotes(sessionKey) ? { dailyMemory: await dailyMemoryFiles(place.workspaceDir, this.now()) } : {}),
        now: this.now(),
        timezone: this.config.agents.defaults.userTimezone ?? localTimeZone(),
        runtime: {
          agentId,
          sessionKey,
          model: candidates[0]!.ref,
          host: hostName(),
          version: this.version,
          ...(keyKind.channel ? { channel: keyKind.channel } : {}),
        },
        allowSilentReply: keyKind.kind !== "main" && keyKind.kind !== "direct",
      });
      const guarded = { store, sessionKey, sessionId: session.sessionId, candidates, signal: controller.signal, emit, system, tools };
      const { result, contextTokens } = await this.compaction.runLoop(
        { ...guarded, createProvider: this.createProvider, trigger: turnTrigger },
        (messages, createProvider) =>
          runAgentLoop({
            candidates,
            createProvider,
            system,
            messages,
            tools,
            toolContext: {
              workspaceDir: place.workspaceDir,
              ...(place.extraRoots?.length ? { extraRoots: place.extraRoots } : {}),
              agentId,
              sessionKey,
              config: this.config,
              stateDir: this.paths.stateDir,
              readableFiles: skills.files,
              ...(Object.keys(skills.env).length ? { env: skills.env } : {}),
            },
            signal: controller.signal,
            ...(request.drainSteering ? { drainSteering: request.drainSteering } : {}),
            record: (entry) => {
              // The final answer (no tool calls: the loop ends with it) is written below, in the
              // same transaction as the entry's token counters, before the `final` event.
              flushDeferred();
              const event = loopRecordEvent(entry, this.now().getTime());
              if (entry.kind === "assistant" && entry.toolCalls.length === 0) deferred = event;
              else {
                record(session.sessionId, [event]);
                return store.committed();
              }
            },
            emit,
          }),
      );
      usage.inputTokens = result.usage.inputTokens;
      usage.outputTokens = result.usage.outputTokens;
      store.transaction(() => {
        flushDeferred();
        const entry = store.getEntry(sessionKey);
        store.updateEntry(sessionKey, {
          inputTokens: (entry?.inputTokens ?? 0) + usage.inputTokens,
          outputTokens: (entry?.outputTokens ?? 0) + usage.outputTokens,
          totalTokens: (entry?.totalTokens ?? 0) + usage.inputTokens + usage.outputTokens,
          ...(result.modelRef ? { model: result.modelRef } : {}),
          ...(contextTokens !== undefined ? { contextUsedTokens: contextTokens } : {}),
        });
      });
      const silent = isSilentReply(result.finalText);
      await store.committed();
      emit({ type: "final", text: silent ? "" : result.finalText, silent });
      return finish("ok", silent ? "" : result.finalText, { silent, ...(result.modelRef ? { modelRef: result.modelRef } : {}) });
    } catch (err) {
      const kind =
        err instanceof ProviderError
          ? err.kind
          : (err as { code?: string }).code === "WORKSPACE_VANISHED"
            ? "workspace"
            : err instanceof Error && "exitCode" in err
              ? "config"
              : "unknown";
      if (kind === "abort" || (controller.signal.aborted && !(err instanceof ProviderError && err.kind === "timeout"))) {
        const timedOut = (controller.signal.reason as { name?: string } | undefined)?.name === "TimeoutError";
        if (timedOut) {
          const text = `The run stopped: it took longer than ${timeoutMs / 1000} s (agents.defaults.timeoutSeconds).`;
          emit({ type: "error", kind: "timeout", message: text });
          this.reportFailure({ runId, agentId, sessionKey, category: "timeout", kind: "timeout", message: text });
          // The user is told, in the chat, why no answer is coming.
          await store.committed();
          emit({ type: "final", text, silent: false });
          return finish("timeout", text, { error: { kind: "timeout", message: text } });
        }
        return finish("aborted", "");
      }
      if (
        !(err instanceof ProviderError) &&
        !(err instanceof Error && err.name === "UserError") &&
        !(err instanceof Error && "exitCode" in err)
      )
        throw err;
      // The chat (perhaps a whole group) gets a short notice; the detail goes to the error event
      // (the CLI, the control API), the transcript, the gateway log and `openclaw status`.
      const message = (err as Error).message;
      const category = failureCategory(err);
      // A ProviderError without a provider is the loop's own (too many model calls, no candidate).
      const text = chatFailureNotice(category, err instanceof ProviderError && err.provider !== "");
      flushDeferred();
      record(session.sessionId, [{ type: "custom", customType: "error", data: { kind, message } }]);
      emit({ type: "error", kind, message });
      this.reportFailure({ runId, agentId, sessionKey, category, kind, message });
      await store.committed();
      emit({ type: "final", text, silent: false });
      return finish("error", text, { error: { kind, message } });
    } finally {
      flushDeferred();
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      // Whatever the turn wrote is on disk before its caller hears it ended.
      await store.committed();
    }
  }

  /** The silent memory-flush turn before a compaction (its reply goes nowhere); marks the cycle flushed whatever it did. */
  private async memoryFlush(agentId: string, sessionKey: string, signal?: AbortSignal): Promise<void> {
    try {
      const message = memoryFlushPrompt(this.now());
      await this.runTurnUnchecked({ agentId, sessionKey, message, trigger: "memory-flush", touch: false, ...(signal ? { signal } : {}) });
    } finally {
      this.compaction.markFlushed(this.store(agentId), sessionKey, this.now().getTime());
    }
  }

  /**
   * Compacts a session now (`/compact`, `openclaw sessions compact`): runs the memory flush first
   * (when enabled and not yet run since the last compaction), then summarizes the older turns.
   * Answers `busy` without changing anything while a turn runs in the session.
   */
  async compactSession(agentId: string, sessionKey: string, options: { signal?: AbortSignal } = {}): Promise<CompactionOutcome> {
    const id = this.resolveAgent(agentId);
    const key = sessionKey.toLowerCase();
    const store = this.store(id);
    const entry = store.getEntry(key);
    if (!entry) return { status: "nothing", tokens: 0 };
    const candidates = sessionCandidates(this.config, id, entry);
    const flush = this.compaction.limits(candidates[0]?.ref).flushAt !== undefined && !flushedThisCycle(entry);
    const outcome = await this.compaction.compactNow(
      {
        store,
        sessionKey: key,
        sessionId: entry.sessionId,
        candidates,
        createProvider: this.createProvider,
        signal: options.signal ?? new AbortController().signal,
      },
      flush ? () => this.memoryFlush(id, key, options.signal) : undefined,
    );
    // Reported (e.g. "compacted" in the chat) only once it is on disk.
    await store.committed();
    return outcome;
  }

  /** The model a session runs on: its `/model` choice, else the agent's configured primary. */
  sessionModel(agentId: string, sessionKey: string): SessionModel {
    const entry = this.store(agentId).getEntry(sessionKey.toLowerCase());
    const ref = sessionCandidates(this.config, agentId, entry)[0]?.ref;
    const contextWindow = contextWindowOf(this.config, ref);
    return { ref, override: overrideOf(entry) !== undefined && ref === overrideOf(entry), ...(contextWindow ? { contextWindow } : {}) };
  }

  /**
   * Sets (or, with `undefined`, clears) a session's model for its next turns, as `/model` does.
   * The ref is validated against the configured providers; an invalid one throws an Error whose
   * message tells the person what to pick instead. Returns the model now in force.
   */
  setSessionModel(agentId: string, sessionKey: string, ref: string | undefined): SessionModel {
    const key = sessionKey.toLowerCase();
    const store = this.store(agentId);
    const chosen = ref === undefined ? undefined : validateModelChoice(this.config, agentId, ref);
    if (!store.getEntry(key)) store.getOrCreateSession(key, { now: this.now().getTime(), touch: false });
    store.updateEntry(key, {
      providerOverride: chosen?.provider,
      modelOverride: chosen?.model,
      modelOverrideSource: chosen ? "user" : undefined,
    });
    return this.sessionModel(agentId, key);
  }

  /** The agent's user-invocable skills (the `/name` chat commands), as discovered now. */
  async skillCommands(agentId: string): Promise<readonly SkillCommand[]> {
    const settings = resolveWorkspaceSettings(this.config, agentId, this.paths, { env: this.env });
    return (await this.skills.forAgent(agentId, settings.workspaceDir)).commands;
  }

  /** The tools a session of this agent gets (after the tool policy), e.g. for `openclaw context --detail`. */
  toolsForSession(agentId: string, sessionKey: string, modelRef?: string): Promise<AgentTool[]> {
    return this.toolsFor(agentId, sessionKey, modelRef ?? resolveModelSelection(this.config, agentId)[0]?.ref ?? "");
  }

  /** Tools are stateless apart from the session's process registry, so they are built once per session and model. */
  private async toolsFor(agentId: string, sessionKey: string, modelRef: string): Promise<AgentTool[]> {
    const cacheKey = `${agentId}\u0000${sessionKey}\u0000${modelRef}`;
    const cached = this.toolCache.get(cacheKey);
    if (cached) return cached;
    if (this.toolCache.size > 1024) this.toolCache.clear();
    // The built-in tools load on the first run, not at gateway start.
    const { BrowserManager, createBuiltinTools, createProcessRegistry, filterTools, gatewayToolsFor, resolveToolPolicy } = await import(
      "../tools/index.js"
    );
    let processes = this.processes.get(sessionKey);
    if (!processes) {
      processes = createProcessRegistry();
      this.processes.set(sessionKey, processes);
    }
    const tools = [
      ...createBuiltinTools({
        config: this.config,
        modelRef,
        processes,
        env: this.env,
        browsers: (this.browsers ??= new BrowserManager()),
        ...(this.options.cronHost ? { cron: this.options.cronHost } : {}),
      }),
      ...createSessionTools({ runtime: this, agentId, sessionKey }),
      ...gatewayToolsFor({ config: this.config, agentId, sessionKey, host: this.gatewayHost() }),
      ...(this.options.extraTools?.({ runtime: this, agentId, sessionKey }) ?? []),
    ];
    const allowed = filterTools(tools, resolveToolPolicy(this.config, agentId));
    this.toolCache.set(cacheKey, allowed);
    return allowed;
  }

  private gatewayHost(): GatewayToolHost {
    return this.options.gatewayHost ?? { configPath: this.paths.configPath, env: this.env };
  }

  private ensureWorkspaceOnce(workspaceDir: string, skipBootstrap: boolean): Promise<{ bootstrapPending: boolean }> {
    let pending = this.ensured.get(workspaceDir);
    if (!pending) {
      pending = ensureWorkspace({ workspaceDir, stateDir: this.paths.stateDir, skipBootstrap }).then((r) => ({
        bootstrapPending: r.bootstrapStatus === "pending",
      }));
      pending.catch(() => this.ensured.delete(workspaceDir));
      this.ensured.set(workspaceDir, pending);
    }
    return pending;
  }

  async close(): Promise<void> {
    await Promise.all([...this.processes.values()].map((p) => p.dispose()));
    this.processes.clear();
    await this.browsers?.closeAll();
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
  }
}
