import type {
  AccountStatus,
  ChannelCapabilities,
  ChannelOutbound,
  ChannelPlugin,
  ChatRef,
  InboundMessage,
  PluginLogger,
  StreamingConfig,
} from "@openclaw/plugin-sdk";
import type { AgentRuntime } from "../agent/index.js";
import type { OpenClawConfig, OpenClawPaths } from "../config/index.js";
import type { ModelCandidate, ModelProvider } from "../providers/index.js";
import type { MessageQueue } from "../queue/index.js";
import type { StateDb } from "../state/index.js";
import type { AgentTool } from "../tool-contract/index.js";
import type { ConfigReloadReport } from "../tools/index.js";
import type { BackupScheduleOptions } from "../databases/index.js";
import type { BackoffPolicy } from "./backoff.js";
import type { EarlyListener } from "./early-listener.js";

/** Where the gateway writes its one-line event log (listening, accounts, migrations). */
export interface GatewayLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** `loopback` listens on 127.0.0.1 only; `lan` on every interface (0.0.0.0) and needs a token. */
export type GatewayBind = "loopback" | "lan";

/** One running account as the inbound pipeline and the `message` tool see it. */
export interface AccountHandle {
  channel: string;
  accountId: string;
  plugin: ChannelPlugin<unknown>;
  /** The account's effective config as `plugin.resolveAccount` returned it. */
  account: unknown;
  /**
   * The validated channel config merged for this account (root overlaid by `accounts.<id>`, with
   * defaults): `dmPolicy`, `allowFrom`, `streaming`, `textChunkLimit`, ... as the access gate and
   * the delivery planner read them.
   */
  config: Record<string, unknown>;
  /**
   * The account's sending side: each call goes to the session connected at that moment (waiting
   * for a reconnect, bounded); every successful call stamps `lastOutboundAt`.
   */
  outbound: ChannelOutbound;
  /** What the account can do in `chat`: the channel's capabilities narrowed by the session's `capabilitiesFor`. */
  capabilitiesFor(chat: ChatRef): ChannelCapabilities;
  /**
   * The `streaming` config of replies in `chat`: the session's `streamingFor(chat)` when it gives
   * one (a per-chat override), else the account's merged `config.streaming`.
   */
  streamingFor(chat: ChatRef): StreamingConfig | undefined;
  /** Prefixed with `[<channel>:<account>]`. */
  log: PluginLogger;
  /** Fires when the gateway has finished its shutdown deadline (stop retrying sends then). */
  signal: AbortSignal;
}

/** Looks up running accounts (for replies and the `message` tool). */
export interface AccountDirectory {
  get(channel: string, accountId: string): AccountHandle | undefined;
  /** Every account whose outbound side exists (started at least once), in config order. */
  list(): AccountHandle[];
}

/** What the gateway hands to the inbound pipeline factory. */
export interface PipelineDeps {
  config: OpenClawConfig;
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  runtime: AgentRuntime;
  queue: MessageQueue;
  /** The shared state database (pairing codes, cursors, delivery ledger). Owned by the gateway. */
  stateDb: StateDb;
  /** Loaded channel plugins by channel id. */
  plugins: ReadonlyMap<string, ChannelPlugin<unknown>>;
  accounts: AccountDirectory;
  log: GatewayLogger;
  /** True once the gateway stops taking work (a run cut off then is handled again at the next start). */
  stopping?: () => boolean;
}

/**
 * From inbound message to delivered reply: access gate, pairing, routing, queue, delivery. Built
 * by the channels runtime; the gateway only feeds it and shuts it down.
 */
export interface InboundPipeline {
  /**
   * Takes one normalized inbound message of `account`. Resolves once the message is recorded
   * (the plugin may then acknowledge the platform); never rejects for a message it refuses.
   */
  handleInbound(message: InboundMessage, account: AccountHandle): Promise<void>;
  /** Called once, right after every account was started: handles what a crash or shutdown left unanswered. */
  start?(): void;
  /** Extra agent tools per session (the shared `message` tool). */
  extraTools?(ctx: { runtime: AgentRuntime; agentId: string; sessionKey: string }): AgentTool[];
  /**
   * Sends a complete text to a chat through the normal outbound path (chunking, the account's
   * send budget, the delivery ledger), exactly once per `key`; resolves with the platform's
   * message ids. Rejects when the account is not running. Used for scheduled (heartbeat, cron) replies.
   */
  send?(target: { channel: string; accountId: string; chat: ChatRef }, text: string, key: string): Promise<string[]>;
  /** Resolves once no inbound message is being handled (its run and reply delivery done); a config reload waits for it before restarting accounts. */
  idle?(): Promise<void>;
  /** Waits for deliveries still in flight, at most `timeoutMs`. Called after the queue drained. */
  drain?(options: { timeoutMs: number }): Promise<void>;
  /** Releases what the pipeline holds. Called once, after `drain`. */
  close?(): Promise<void> | void;
}

/** Builds the inbound pipeline once the runtime, the queue and the accounts directory exist. */
export type PipelineFactory = (deps: PipelineDeps) => InboundPipeline | Promise<InboundPipeline>;

/** How plugins are found when none are injected. */
export type PluginDiscovery = (input: {
  paths: OpenClawPaths;
  /** The raw config file contents (after `$include`/`${VAR}` resolution), not yet validated. */
  rawConfig: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  log: GatewayLogger;
}) => Promise<ChannelPlugin<unknown>[]>;

export interface GatewayOptions {
  paths: OpenClawPaths;
  /** `--port`; wins over `OPENCLAW_GATEWAY_PORT` and `gateway.port` (default 18789). 0 picks a free port. */
  port?: number;
  /** `--bind`; wins over `gateway.bind` (default "loopback"). */
  bind?: GatewayBind;
  /** `--token`; wins over `gateway.auth.token`, `OPENCLAW_GATEWAY_TOKEN` and the generated token file. */
  token?: string;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Channel plugins to use; default: discovered through the plugin loader. */
  plugins?: ChannelPlugin<unknown>[];
  /** Replaces plugin discovery (ignored when `plugins` is given). */
  discoverPlugins?: PluginDiscovery;
  /** The model provider factory handed to the AgentRuntime (tests); default: from `models.providers`. */
  createProvider?: (candidate: ModelCandidate) => ModelProvider;
  /**
   * Builds the inbound pipeline (access, routing, queue, delivery). Required: the composition root
   * (`startGatewayProcess` in ../app, used by `openclaw gateway`) passes the channels runtime's.
   */
  pipelineFactory: PipelineFactory;
  /** Default: one line per event on stderr. */
  log?: GatewayLogger;
  /** Restart pacing of crashed accounts; default 1 s doubling to 60 s, reset after 5 min healthy. */
  backoff?: Partial<BackoffPolicy>;
  /** How long `stop()` lets in-flight runs and deliveries finish; default 10 000 ms. */
  shutdownTimeoutMs?: number;
  /** Reported by `status`; default: the version of @openclaw/core. */
  version?: string;
  /**
   * The rolling database backups (tests inject the clock and timers): a round at start, then
   * every 6 hours, the newest 3 of each database kept in `<stateDir>/backups`.
   */
  backups?: Pick<BackupScheduleOptions, "intervalMs" | "keep" | "now" | "timers">;
  /** Quiet time after the last change of the config file before it is reloaded; default 300 ms. */
  reloadDebounceMs?: number;
  /**
   * The built Control UI to serve (index.html + assets/); default `dist/control-ui/` of this
   * package. Tests pass a small fixture folder. Ignored with `gateway.controlUi.enabled: false`.
   */
  controlUiDir?: string;
  /**
   * The control port bound early (`listenEarly`, by `openclaw gateway` before it loads the rest):
   * adopted when it matches the host and port the config resolves to (any port when that is 0),
   * else closed and the resolved address bound instead. Closed when the start fails.
   */
  listener?: EarlyListener;
}

/** State of one account, as `status()` and `channels.status` report it. */
export interface AccountStatusReport {
  channel: string;
  accountId: string;
  /** The account's `name` from the config, when set. */
  name?: string;
  state: AccountStatus["state"];
  /** What is wrong and how to fix it (state `error`, `reconnecting` or `needs-login`), or why it is stopped. */
  detail?: string;
  /** State `needs-login`: the command that links the account, e.g. `openclaw channels login <channel>`. */
  loginCommand?: string;
  /**
   * While a link started over the control API (`channels.login`) waits for the phone: the QR
   * code to scan (`data` is the text to encode; it changes every little while).
   */
  login?: { kind: "qr"; data: string };
  identity?: string;
  /** The plugin's facts about the connection (`AccountStatus.details`), e.g. a device id. */
  details?: Record<string, string>;
  /** The last crash or start error, kept after the account recovered. */
  lastError?: string;
  /** How many times the account was restarted after a crash. */
  restarts: number;
  startedAt?: number;
  lastInboundAt?: number;
  lastOutboundAt?: number;
}

/** Channel summary: every account of every configured channel. */
export interface ChannelStatusReport {
  channel: string;
  label: string;
  accounts: AccountStatusReport[];
}

/** A running gateway. */
export interface Gateway {
  /** The port actually listened on (useful with port 0). */
  readonly port: number;
  /** The address listened on (`127.0.0.1` or `0.0.0.0`). */
  readonly host: string;
  readonly bind: GatewayBind;
  /** `ws://<host>:<port>/` with `127.0.0.1` for a lan bind. */
  readonly url: string;
  /**
   * `http://127.0.0.1:<port><basePath>` where the Control UI answers (without the token; add
   * `#token=<token>` to open it signed in); undefined with `gateway.controlUi.enabled: false`.
   */
  readonly controlUiUrl: string | undefined;
  /** The token clients authenticate with; undefined with `gateway.auth.mode: "none"`. */
  readonly token: string | undefined;
  /** The running config; a config reload replaces its contents in place (`gateway.*` and `plugins` excepted). */
  readonly config: OpenClawConfig;
  readonly runtime: AgentRuntime;
  readonly queue: MessageQueue;
  /** Per channel and account state. */
  status(): ChannelStatusReport[];
  /**
   * Reads and validates the config file now and applies what is safe without a restart (see
   * docs/gateway.md, "Config reload"); an invalid file keeps the running config. The gateway
   * also does this by itself when the file changes.
   */
  reloadConfig(): Promise<ConfigReloadReport>;
  /**
   * Graceful shutdown: refuses new inbound messages and runs, stops the accounts' monitors, lets
   * runs and deliveries in flight finish for up to `timeoutMs` (default: the gateway's
   * `shutdownTimeoutMs`, 10 s), aborts what is left, then closes the queue, the stores and the
   * server. Idempotent: later calls return the same promise.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Resolves when the gateway has fully stopped. */
  readonly closed: Promise<void>;
}
