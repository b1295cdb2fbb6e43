// Hosts one account of the plugin under test with the SDK and the delivery engine (no core): resolves it, builds
// its outbound side behind a recording seam, runs `start` with a recording `receive`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sendBudgetFor, type SendBudget } from "@openclaw/delivery";
import {
  mergeAccountConfig,
  type AccountContext,
  type AccountSession,
  type AccountStatus,
  type ChannelCapabilities,
  type ChannelOutbound,
  type ChannelPlugin,
  type InboundMessage,
  type PluginLogger,
  type SendPriority,
} from "@openclaw/plugin-sdk";
import { inboundProblems } from "./text.js";
import type { ChannelConformanceSpec, ConformanceChatView, ConformanceHarness } from "./types.js";

/** One outbound call the plugin's sending side received, as the suite saw it. */
export interface OutboundCallRecord {
  seq: number;
  /** "stream-*": the open of a native stream and the calls on it (update, finish, abort). */
  op: "send" | "edit" | "delete" | "typing" | "media" | "stream-open" | "stream-update" | "stream-finish" | "stream-abort";
  chatId: string;
  /** The message edited or deleted, or the id a send returned. */
  messageId?: string;
  text?: string;
  priority: SendPriority;
  startedAt: number;
  endedAt?: number;
  /** Undefined while in flight. */
  ok?: boolean;
  error?: unknown;
}

/** A running account of the plugin under test, with everything the cases look at. */
export interface ConformanceSession {
  readonly harness: ConformanceHarness<unknown>;
  readonly plugin: ChannelPlugin<unknown>;
  readonly accountId: string;
  readonly capabilities: ChannelCapabilities;
  /** The smaller of `textChunkLimit` (when configured) and `capabilities.textLimit`. */
  readonly textLimit: number;
  /** The smaller of `capabilities.editLimit` and `textLimit`. */
  readonly editLimit: number;
  /** The preview throttle the channel asks for: `minEditIntervalMs` (default 1000), at least 250. */
  readonly throttleMs: number;
  readonly timeoutMs: number;
  /** The plugin's outbound side behind the recording seam. */
  readonly outbound: ChannelOutbound;
  readonly calls: readonly OutboundCallRecord[];
  readonly received: readonly InboundMessage[];
  /** Problems with received messages (malformed InboundMessage) and with the account's lifecycle. */
  readonly problems: readonly string[];
  readonly logs: ReadonlyArray<{ level: string; message: string }>;
  readonly status: Partial<AccountStatus>;
  /** True while `start` has neither resolved nor rejected. */
  running(): boolean;
  /** A fresh send budget from the channel's declared quotas. */
  budget(): SendBudget;
  /** A new user DMs the bot `text`; resolves with the message the plugin handed to `receive`. */
  newDirectChat(text?: string): Promise<InboundMessage>;
  /** A user id no case used before ("conf-user-<n>"), for `ConformancePlatform.userSays`. */
  newUser(): string;
  /** `senderId` DMs the bot `text`; resolves with the message the plugin handed to `receive`. */
  directMessage(senderId: string, text: string): Promise<InboundMessage>;
  /** Resolves with the first received message (from index `from`) matching `predicate`. */
  waitForInbound(predicate: (message: InboundMessage) => boolean, what: string, from?: number): Promise<InboundMessage>;
  /** Resolves once an outbound call (with `seq` above `after`) has ended and matches `predicate`. */
  waitForCall(predicate: (call: OutboundCallRecord) => boolean, what: string, after?: number): Promise<OutboundCallRecord>;
  /** The number of outbound calls so far (a `seq` watermark). */
  seq(): number;
  view(chatId: string): Promise<ConformanceChatView>;
  /** Stops the account (abort), checks that the session's `closed` resolved, then closes the platform. */
  stop(): Promise<void>;
}

/**
 * Resolves one account as core does: validates `channels.<id>` with the plugin's own schema
 * (throwing an Error that lists the schema's complaints), merges the account, then calls
 * `resolveAccount` (whose own errors, e.g. `AccountConfigError`, pass through).
 */
export function resolveAsCore(plugin: ChannelPlugin<unknown>, channelConfig: unknown, accountId: string, env: NodeJS.ProcessEnv): unknown {
  const parsed = plugin.config.schema.safeParse(channelConfig);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `channels.${plugin.id}.${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`conformance (${plugin.id}): the config does not validate against the plugin's schema: ${issues}`);
  }
  const channel = parsed.data as Record<string, unknown>;
  return plugin.resolveAccount({ accountId, config: mergeAccountConfig(channel, accountId), channel, env });
}

/** Starts the harness's account; resolves once it reported "connected". */
export async function startSession(spec: ChannelConformanceSpec<unknown>): Promise<ConformanceSession> {
  const harness = await spec.createHarness();
  const timeoutMs = spec.timeoutMs ?? 15_000;
  const { plugin, accountConfig } = harness;
  const env = harness.env ?? process.env;
  const accountId = harness.accountId ?? plugin.listAccounts(accountConfig, env)[0];
  if (accountId === undefined) throw new Error(`conformance: ${plugin.id}.listAccounts returned no account for the harness config`);
  const account = resolveAsCore(plugin, accountConfig, accountId, env);

  const calls: OutboundCallRecord[] = [];
  const received: InboundMessage[] = [];
  const problems: string[] = [];
  const logs: Array<{ level: string; message: string }> = [];
  const status: Partial<AccountStatus> = {};
  const checks = new Set<() => void>();
  const notify = (): void => {
    for (const check of [...checks]) check();
  };
  const waitUntil = <T>(find: () => T | undefined, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = (): void => {
        const value = find();
        if (value === undefined) return;
        checks.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        checks.delete(check);
        reject(new Error(`conformance (${plugin.id}): timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      checks.add(check);
      check();
    });

  const log: PluginLogger = {
    debug: (message) => logs.push({ level: "debug", message }),
    info: (message) => logs.push({ level: "info", message }),
    warn: (message) => logs.push({ level: "warn", message }),
    error: (message) => logs.push({ level: "error", message }),
  };
  const stopController = new AbortController();
  const credentialsDir = mkdtempSync(path.join(tmpdir(), `openclaw-conformance-${plugin.id}-`));
  const cursors = new Map<string, string>();
  const ctx: AccountContext<unknown> = {
    accountId,
    account,
    signal: stopController.signal,
    async receive(message) {
      for (const problem of inboundProblems(message, plugin.id, accountId))
        problems.push(`received message ${JSON.stringify(message.messageId)}: ${problem}`);
      received.push(message);
      notify();
    },
    status(update) {
      Object.assign(status, update);
      notify();
    },
    log,
    credentialsDir,
    cursor: { get: (key) => cursors.get(key), set: (key, value) => void cursors.set(key, value) },
  };
  let settled: { ok: true } | { ok: false; error: unknown } | undefined;
  let connected: AccountSession | undefined;
  const started = Promise.resolve()
    .then(async () => {
      connected = await plugin.connect(ctx);
      notify();
      await connected.closed;
    })
    .then(
      () => {
        settled = { ok: true };
        if (!stopController.signal.aborted) problems.push("the session closed before the account was asked to stop");
        notify();
      },
      (error: unknown) => {
        settled = { ok: false, error };
        problems.push(
          `${connected ? "the session's closed" : "connect()"} rejected: ${error instanceof Error ? error.message : String(error)}`,
        );
        notify();
      },
    );

  const cleanup = async (): Promise<void> => {
    stopController.abort(new Error("conformance run finished"));
    await harness.platform.close();
    rmSync(credentialsDir, { recursive: true, force: true });
  };
  let outbound: ChannelOutbound;
  try {
    await waitUntil(
      () => ((status.state === "connected" && connected) || settled !== undefined ? true : undefined),
      'connect() to return a session and the account to report status "connected"',
    );
    if (settled !== undefined || !connected)
      throw new Error(`conformance (${plugin.id}): the account stopped before it connected: ${problems.join("; ")}`);
    outbound = recordingOutbound(connected, calls, notify);
  } catch (error) {
    await cleanup();
    throw error;
  }

  const caps = plugin.config.capabilities;
  const configured = Number(accountConfig.textChunkLimit);
  const textLimit = Number.isFinite(configured) && configured > 0 ? Math.min(configured, caps.textLimit) : caps.textLimit;
  let users = 0;
  const session: ConformanceSession = {
    harness,
    plugin,
    accountId,
    capabilities: caps,
    textLimit,
    editLimit: Math.min(caps.editLimit ?? textLimit, textLimit),
    throttleMs: Math.max(250, caps.minEditIntervalMs ?? 1000),
    timeoutMs,
    outbound,
    calls,
    received,
    problems,
    logs,
    status,
    running: () => settled === undefined,
    budget: () => sendBudgetFor(caps),
    newDirectChat(text = "hello from the conformance suite") {
      return session.directMessage(session.newUser(), text);
    },
    newUser() {
      users += 1;
      return `conf-user-${users}`;
    },
    async directMessage(senderId, text) {
      const from = received.length;
      await harness.platform.userSays({ senderId, senderName: `Conformance User ${senderId.replace(/\D/g, "")}`, text, kind: "direct" });
      return session.waitForInbound((m) => m.text === text, `the plugin to receive the DM ${JSON.stringify(text)} from ${senderId}`, from);
    },
    waitForInbound(predicate, what, from = 0) {
      return waitUntil(() => received.slice(from).find(predicate), what);
    },
    waitForCall(predicate, what, after = 0) {
      return waitUntil(() => calls.find((c) => c.seq > after && c.ok !== undefined && predicate(c)), what);
    },
    seq: () => calls.length,
    async view(chatId) {
      return harness.platform.chatView(chatId);
    },
    async stop() {
      stopController.abort(new Error("conformance run finished"));
      const ended = await Promise.race([
        started.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), timeoutMs).unref()),
      ]);
      await harness.platform.close();
      rmSync(credentialsDir, { recursive: true, force: true });
      if (!ended) throw new Error(`conformance (${plugin.id}): the session did not close within ${timeoutMs} ms after its signal fired`);
      if (settled?.ok === false)
        throw new Error(
          `conformance (${plugin.id}): the session's closed rejected: ${String((settled.error as Error)?.message ?? settled.error)}`,
        );
    },
  };
  return session;
}

/** Wraps every outbound method so each call is recorded with its timing and outcome. */
function recordingOutbound(inner: ChannelOutbound, calls: OutboundCallRecord[], notify: () => void): ChannelOutbound {
  const record = async <T>(
    entry: Omit<OutboundCallRecord, "seq" | "startedAt">,
    run: () => Promise<T>,
    idOf?: (value: T) => string,
  ): Promise<T> => {
    const call: OutboundCallRecord = { ...entry, seq: calls.length + 1, startedAt: Date.now() };
    calls.push(call);
    try {
      const value = await run();
      call.ok = true;
      const id = idOf?.(value);
      if (id !== undefined) call.messageId = id;
      return value;
    } catch (error) {
      call.ok = false;
      call.error = error;
      throw error;
    } finally {
      call.endedAt = Date.now();
      notify();
    }
  };
  const outbound: ChannelOutbound = {
    sendText: (target, text, o) =>
      record(
        { op: "send", chatId: target.chat.id, text, priority: o.priority },
        () => inner.sendText(target, text, o),
        (v) => v.messageId,
      ),
  };
  if (inner.editText) {
    const edit = inner.editText.bind(inner);
    outbound.editText = (target, messageId, text, o) =>
      record({ op: "edit", chatId: target.chat.id, messageId, text, priority: o.priority }, () => edit(target, messageId, text, o));
  }
  if (inner.deleteMessage) {
    const del = inner.deleteMessage.bind(inner);
    outbound.deleteMessage = (target, messageId, o) =>
      record({ op: "delete", chatId: target.chat.id, messageId, priority: o.priority }, () => del(target, messageId, o));
  }
  if (inner.typing) {
    const typing = inner.typing.bind(inner);
    outbound.typing = (target, o) => record({ op: "typing", chatId: target.chat.id, priority: o.priority }, () => typing(target, o));
  }
  if (inner.sendMedia) {
    const media = inner.sendMedia.bind(inner);
    outbound.sendMedia = (target, file, o) =>
      record(
        { op: "media", chatId: target.chat.id, ...(file.caption !== undefined ? { text: file.caption } : {}), priority: o.priority },
        () => media(target, file, o),
        (v) => v.messageId,
      );
  }
  if (inner.openStream) {
    const open = inner.openStream.bind(inner);
    outbound.openStream = async (target, o) => {
      const chatId = target.chat.id;
      const stream = await record({ op: "stream-open", chatId, priority: o.priority }, () => open(target, o));
      if (stream === null) return null;
      return {
        update: (text) => record({ op: "stream-update", chatId, text, priority: "preview" }, () => stream.update(text)),
        finish: (text) =>
          record(
            { op: "stream-finish", chatId, text, priority: "final" },
            () => stream.finish(text),
            (v) => v.messageId,
          ),
        abort: (reason) => record({ op: "stream-abort", chatId, priority: "final" }, () => stream.abort(reason)),
      };
    };
  }
  return outbound;
}
