import type { AgentEvent, TurnRequest, TurnResult, TurnTrigger } from "../agent/index.js";

/**
 * What happens to a message that arrives while its session has a run going:
 * - `steer` (default): it joins the active run after the current tool batch, before the next model call;
 * - `followup`: it waits and runs as its own turn afterwards, one turn per message;
 * - `collect`: it waits, and everything that waited runs as ONE turn after a quiet window;
 * - `interrupt`: the active run is aborted and the newest message runs instead.
 */
export type QueueMode = "steer" | "followup" | "collect" | "interrupt";

/** Mode spellings accepted from config and `/queue`: the modes plus the legacy `queue` (= steer) and `steer-backlog` / `steer+backlog`. */
export type QueueModeInput = QueueMode | "queue" | "steer-backlog" | "steer+backlog";

/** At the cap: `summarize` drops the oldest and tells the next turn what was dropped; `old` drops the oldest; `new` rejects the incoming message. */
export type QueueDropPolicy = "summarize" | "old" | "new";

/** The settings in force for one message, after precedence (session override > `byChannel` > `mode` > steer). */
export interface QueueSettings {
  mode: QueueMode;
  /** `steer-backlog`: steer now and also keep the message for a follow-up turn. */
  backlog: boolean;
  /** Quiet window before queued messages run (default 500 ms). */
  debounceMs: number;
  /** Most messages waiting per session (default 20). */
  cap: number;
  drop: QueueDropPolicy;
  /** Where the mode came from. */
  modeSource: "session" | "channel" | "config" | "default";
}

/** A per-session override set with `/queue <mode> [debounce:…] [cap:…] [drop:…]`. Every field is optional. */
export interface QueueOverride {
  mode?: QueueModeInput;
  debounceMs?: number;
  cap?: number;
  drop?: QueueDropPolicy;
}

/** Where per-session overrides live. Default: in memory, for the life of the queue. */
export interface QueueOverrideStore {
  get(sessionKey: string): QueueOverride | undefined;
  /** `undefined` clears the override (`/queue reset`). */
  set(sessionKey: string, override: QueueOverride | undefined): void;
}

/** The slice of the config the queue reads; `OpenClawConfig` fits, and so does raw JSON. */
export interface QueueConfigSource {
  messages?: {
    queue?: {
      mode?: string;
      byChannel?: Record<string, string | undefined>;
      debounceMs?: number;
      debounceMsByChannel?: Record<string, number | undefined>;
      cap?: number;
      drop?: string;
    };
  };
  agents?: { defaults?: { maxConcurrent?: number } };
}

export interface QueueLogger {
  info?(message: string): void;
  warn(message: string): void;
}

/** Timer functions, injectable so tests can drive the debounce deterministically. */
export interface QueueTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface MessageQueueOptions {
  /** Runs one turn; normally `runtime.runTurn.bind(runtime)`. */
  run(request: TurnRequest): Promise<TurnResult>;
  /** Reads `messages.queue.*` and `agents.defaults.maxConcurrent`; defaults apply to anything missing. */
  config?: QueueConfigSource;
  /** Most runs at once across all sessions. Default: `agents.defaults.maxConcurrent`, else min(16, max(8, CPU count)). */
  maxConcurrent?: number;
  /** Milliseconds clock. Default `Date.now`. */
  now?: () => number;
  /** Default: the global `setTimeout` / `clearTimeout`. */
  timers?: QueueTimers;
  /** Default: `console.warn` for notices, nothing for info. */
  logger?: QueueLogger;
  /** A run that waited longer than this for the global lane logs a notice (default 2000 ms). */
  waitNoticeMs?: number;
  /** Default: an in-memory map. */
  overrides?: QueueOverrideStore;
}

/** One inbound message. */
export interface QueueMessage {
  /** Default: the runtime's default agent. */
  agentId?: string;
  /** The session the message belongs to; one run at a time per session key (compared case-insensitively). */
  sessionKey: string;
  /** Channel id for `byChannel` and `debounceMsByChannel`, e.g. the key under `channels`. */
  channel?: string;
  text: string;
  /**
   * Receives the events of the turn that answers this message. A turn that answers several
   * messages (collect, leftover steering) reports to the newest one's handler only, so a reply
   * is delivered once.
   */
  onEvent?: (event: AgentEvent) => void;
  origin?: TurnRequest["origin"];
  /**
   * Inbox keys of the channel message(s) this message stands for. They travel with its text into
   * whichever turn takes it (its own, a merged one, or as steering) and are recorded with it in
   * the transcript, so a replay after a crash can tell what the agent already has.
   */
  inboundKeys?: readonly string[];
  /** False for system, heartbeat and cron messages. Default true. */
  touch?: boolean;
  /** Why the turn runs; handed to the runtime (default "user"). */
  trigger?: TurnTrigger;
  /**
   * A scheduled message (heartbeat, cron): it never joins, interrupts or merges with another
   * turn whatever the queue mode. A busy session keeps it waiting in the lane as a turn of its
   * own (outside the cap); while it runs, messages that arrive wait for a turn of their own too.
   */
  ownTurn?: boolean;
}

/** The TurnResult of the turn that answered a message, or undefined when it never ran (dropped, cancelled, failed). */
export type PendingResult = Promise<TurnResult | undefined>;

/** What `submit` did with a message. */
export type SubmitOutcome =
  /** It ran as a turn of its own (the session was idle, or it interrupted the active run). */
  | {
      kind: "ran";
      turnId: string;
      result: TurnResult;
      /** The run this message aborted (interrupt mode). */
      interrupted?: { turnId: string; runId?: string };
      /** Messages that were waiting and were dropped by the interrupt. */
      droppedQueued?: number;
    }
  /** It joined the active run; if that run ended before taking it, it ran in a follow-up turn. */
  | { kind: "steered"; turnId: string; runId?: string; alsoQueued: boolean; result: PendingResult }
  /** It waits for a later turn of its own (or, in collect mode, the first of a group). */
  | { kind: "queued"; turnId: string; position: number; droppedOldest: number; result: PendingResult }
  /** Collect mode: it joined messages already waiting; they run as one turn. */
  | { kind: "merged"; turnId: string; groupSize: number; droppedOldest: number; result: PendingResult }
  /** Not accepted: the session queue is full with `drop: "new"`, or the queue is closed. */
  | { kind: "dropped"; reason: "cap" | "closed"; message: string }
  /** It was about to run but was cancelled first (`abort`, a newer interrupt, or shutdown). */
  | { kind: "cancelled"; reason: CancelReason }
  /** A `/queue` command; it never reaches the agent. `reply` is the text to send back. */
  | { kind: "command"; reply: string; settings: QueueSettings };

export type CancelReason = "abort" | "interrupt" | "closed" | "dropped";

export interface AbortSummary {
  /** Waiting messages (queued or undrained steering) that were cancelled. */
  cancelled: number;
  /** Turn ids of the active runs that were aborted. */
  aborted: string[];
}

/** What the queue is doing for one session (for status displays and tests). */
export interface SessionQueueState {
  sessionKey: string;
  active?: { turnId: string; runId?: string; pendingSteering: number; startedAt?: number };
  queued: number;
}
