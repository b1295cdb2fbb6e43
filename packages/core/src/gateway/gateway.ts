import type { ChannelPlugin, InboundMessage } from "@openclaw/plugin-sdk";
import { AgentRuntime } from "../agent/index.js";
import { loadConfig, UserError } from "../config/index.js";
import { MessageQueue } from "../queue/index.js";
import { SecretScrubber } from "../redaction/index.js";
import { importLegacySessions, listAgentIdsWithLegacySessions, normalizeAgentId } from "../sessions/index.js";
import {
  assertDatabasesIntact,
  BackupSchedule,
  describeDamageInOneLine,
  locateDamage,
  isCorruptionError,
  stateDatabase,
} from "../databases/index.js";
import { openStateDb, type StateDb } from "../state/index.js";
import { createGatewayCron, createGatewayHeartbeat, type CronService } from "../scheduler/index.js";
import { AccountManager } from "./account-manager.js";
import { createConfigApplier } from "./apply-config.js";
import { ConfigReloader } from "./config-reload.js";
import { ControlRuns } from "./control-runs.js";
import { ControlServer } from "./control-server.js";
import { HttpRouteTable } from "./http-routes.js";
import { ControlUi, defaultControlUiDir, normalizeBasePath } from "./control-ui.js";
import { ACCOUNT_CLOSE_GRACE_MS, DEFAULT_SHUTDOWN_TIMEOUT_MS, GATEWAY_EVENTS } from "./constants.js";
import { CursorStore } from "./cursor-store.js";
import { createStreamLogger, scrubbingLogger } from "./log.js";
import { LogTail, teeLogger } from "./log-tail.js";
import { ChannelChangeFeed } from "./channel-events.js";
import { createChatCommands } from "../commands/index.js";
import { createMethods } from "./methods.js";
import { assertChannelPluginsPresent, discoverChannelPlugins } from "./plugin-source.js";
import { MAX_PAYLOAD_BYTES, PROTOCOL_VERSION } from "./protocol.js";
import { bindHost, resolveGatewayAuth, resolveGatewayBind, resolveGatewayPort } from "./settings.js";
import { loadStartupConfig, readRawConfig } from "./startup-config.js";
import { removeGatewayRecord, writeGatewayRecord } from "./run-record.js";
import { endStartupMemoryWindow } from "./startup-memory.js";
import { gatewayTokenPath } from "./token-file.js";
import type { ConfigReloadReport } from "../tools/index.js";
import type { AccountHandle, Gateway, GatewayOptions, InboundPipeline } from "./types.js";
import { gatewayVersion } from "./version.js";

/**
 * Starts the gateway:
 * 1. finds the channel plugins (injected, or through the plugin loader);
 * 2. loads the config, applying the safe doctor migrations to the file first (backup + one log
 *    line per change) and refusing to start while it is invalid;
 * 3. refuses a configured channel whose plugin is missing, and a non-loopback bind without auth;
 * 4. checks the state database and every agent's session database with `PRAGMA quick_check`,
 *    refusing to start while one is damaged (the error names the file, the newest good backup and
 *    the fix); starts the rolling backups (a round now, then every 6 hours, 3 kept per database);
 *    opens the state database, the AgentRuntime (session stores) and the MessageQueue, and
 *    imports legacy JSON sessions;
 * 5. listens (HTTP `GET /health` + the WebSocket control API; or adopts `options.listener`, the
 *    port bound early, and serves the requests waiting on it), records its pid and port in
 *    `<stateDir>/gateway.json` (removed again when it stops) for the CLI, then starts every
 *    enabled account of every configured channel.
 * Every failure is a UserError with the fix; whatever was opened is closed again.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  try {
    return await start(options);
  } catch (err) {
    // Whether or not the control server adopted it, the early listener closes with a failed start.
    await options.listener?.close();
    throw err;
  }
}

async function start(options: GatewayOptions): Promise<Gateway> {
  const env = options.env ?? process.env;
  // Every log line (plugins' too) and every status answer goes through the scrubber, which learns
  // the configured secrets as the config is read.
  const scrubber = new SecretScrubber();
  // The tail for `logs.tail` sits behind the scrubber, so it only ever holds scrubbed lines.
  const logTail = new LogTail();
  const log = scrubbingLogger(teeLogger(options.log ?? createStreamLogger(), logTail), scrubber);
  const { paths } = options;
  const version = options.version ?? gatewayVersion();
  const startedAt = Date.now();

  const rawConfig = await readRawConfig(paths, env);
  scrubber.addConfig(rawConfig);
  const plugins: ChannelPlugin<unknown>[] =
    options.plugins ?? (await (options.discoverPlugins ?? discoverChannelPlugins)({ paths, rawConfig, env, log }));
  const pluginMap = new Map(plugins.map((p) => [p.id, p]));
  const channelDefinitions = plugins.map((p) => p.config).filter((c) => !!c);
  const { config } = await loadStartupConfig({ paths, env, channels: channelDefinitions, log });
  scrubber.addConfig(config);
  assertChannelPluginsPresent(config as unknown as Record<string, unknown>, plugins, paths.configPath);

  const port = resolveGatewayPort(config, env, options.port);
  const bind = resolveGatewayBind(config, options.bind);
  const host = bindHost(bind);
  const auth = resolveGatewayAuth({
    config,
    env,
    bind,
    stateDir: paths.stateDir,
    configPath: paths.configPath,
    ...(options.token !== undefined ? { flag: options.token } : {}),
  });
  scrubber.add(auth.token);
  if (auth.source === "generated") log.info(`generated a control API token in ${gatewayTokenPath(paths.stateDir)}`);

  const cleanup: (() => Promise<void> | void)[] = [];
  // Closes what was opened, newest first (server, queue, runtime, state database); errors are ignored.
  const unwind = async () => {
    for (const fn of cleanup.splice(0).reverse()) {
      try {
        await fn();
      } catch {
        // keep closing the rest
      }
    }
  };
  let reloadNow: (() => Promise<ConfigReloadReport>) | undefined;
  const reloadConfig = (): Promise<ConfigReloadReport> => {
    if (!reloadNow) return Promise.reject(new Error("the gateway is not running yet; the config is read when it starts"));
    return reloadNow();
  };
  try {
    assertDatabasesIntact(paths.stateDir, "The gateway does not start: a database is damaged.");
    const stateDb: StateDb = openStateDb(paths.stateDir);
    cleanup.push(() => void stateDb.close());
    const backups = new BackupSchedule({ stateDir: paths.stateDir, log, ...options.backups });
    cleanup.push(() => backups.stop());

    let pipeline: InboundPipeline | undefined;
    // Created once the pipeline exists; the cron tool asks for it per call.
    let cron: CronService | undefined;
    let reloader: ConfigReloader | undefined;
    const runtime = new AgentRuntime({
      config,
      paths,
      env,
      version,
      ...(options.createProvider ? { createProvider: options.createProvider } : {}),
      extraTools: (ctx) => pipeline?.extraTools?.(ctx) ?? [],
      onRunError: (e) => log.error(`run ${e.runId} of agent ${e.agentId} (session ${e.sessionKey}) failed [${e.category}]: ${e.message}`),
      gatewayHost: {
        configPath: paths.configPath,
        env,
        channels: channelDefinitions,
        reload: () => reloadConfig(),
      },
      cronHost: { jobs: () => cron },
    });
    cleanup.push(() => runtime.close());
    const queue = new MessageQueue({
      run: (request) => {
        // A turn is work: the start-up memory window (no Turbofan) ends.
        endStartupMemoryWindow();
        return runtime.runTurn(request);
      },
      config,
      logger: { info: (m) => log.info(`queue: ${m}`), warn: (m) => log.warn(`queue: ${m}`) },
    });
    cleanup.push(() => queue.close({ timeoutMs: 0 }).then(() => undefined));

    importLegacy(runtime, paths.stateDir, log);

    let accepting = true;
    const receive = async (message: InboundMessage, handle: AccountHandle) => {
      if (!accepting || !pipeline) {
        // Rejecting (not dropping) keeps the message unacknowledged, so the platform redelivers it.
        throw new Error("the gateway is stopping; the message was not taken");
      }
      try {
        await pipeline.handleInbound(message, handle);
      } catch (err) {
        if (!isCorruptionError(err)) throw err;
        // The inbox could not record it: the platform is not acknowledged and delivers it again.
        const damage = locateDamage(paths.stateDir, stateDatabase(paths.stateDir), err).map(describeDamageInOneLine).join("; ");
        log.error(`message ${message.messageId} of ${handle.channel}:${handle.accountId} was not taken: ${damage}`);
        throw new Error(`the message was not taken: ${damage}`);
      }
    };
    const routes = new HttpRouteTable(log);
    let channelFeed: ChannelChangeFeed | undefined;
    const accounts = new AccountManager({
      plugins: pluginMap,
      channels: config.channels as Record<string, unknown>,
      env,
      stateDir: paths.stateDir,
      cursors: new CursorStore(stateDb),
      receive,
      log,
      routes,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      onChange: () => channelFeed?.notify(),
    });
    pipeline = await options.pipelineFactory({
      config,
      paths,
      env,
      runtime,
      queue,
      stateDb,
      plugins: pluginMap,
      accounts,
      log,
      stopping: () => !accepting,
    });

    let broadcast: (event: string, payload: unknown) => void = () => undefined;
    cron = createGatewayCron({ config, runtime, queue, stateDb, pipeline, plugins: pluginMap, log });
    cleanup.push(() => cron?.stop());
    const heartbeat = createGatewayHeartbeat({
      config,
      runtime,
      queue,
      stateDb,
      pipeline,
      plugins: pluginMap,
      log,
      broadcast: (e, p) => broadcast(e, p),
    });
    cleanup.push(() => heartbeat.stop());

    let actualPort = port;
    const runs = new ControlRuns(runtime, queue, () => accepting, createChatCommands({ runtime, queue }));
    const methods = createMethods({
      runtime,
      config,
      runs,
      scrubber,
      channels: () => accounts.status(),
      info: () => ({ version, startedAt, port: actualPort, bind, host }),
      accepting: () => accepting,
      heartbeat,
      cron,
      paths,
      env,
      channelDefinitions,
      stateDb,
      logTail,
      loginAccount: (channel, accountId, timeoutMs) => accounts.login(channel, accountId, timeoutMs),
    });
    const uiSettings = config.gateway.controlUi;
    const controlUi = uiSettings.enabled
      ? new ControlUi({
          dir: options.controlUiDir ?? defaultControlUiDir(),
          basePath: normalizeBasePath(uiSettings.basePath),
          host,
          port: () => actualPort,
          log,
        })
      : undefined;
    // The validated config may name another address than the raw file did (a migrated key):
    // then listen where it says.
    let listener = options.listener;
    if (listener && (listener.host !== host || (port !== 0 && listener.port !== port))) {
      await listener.close();
      listener = undefined;
    }
    const server = new ControlServer({
      host,
      port,
      ...(listener ? { listener } : {}),
      token: auth.token,
      methods,
      log,
      allowedOrigins: config.gateway.controlUi.allowedOrigins,
      routes,
      ...(controlUi ? { controlUi } : {}),
      hello: () => ({
        protocol: PROTOCOL_VERSION,
        server: { name: "openclaw", version, pid: process.pid },
        features: { methods: Object.keys(methods).sort(), events: [...GATEWAY_EVENTS] },
        policy: { maxPayload: MAX_PAYLOAD_BYTES },
      }),
    });
    try {
      actualPort = await server.listen();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
        throw new UserError(
          `Port ${port} on ${host} is already in use: is another gateway running? Check with \`openclaw status\`, or pick another port with --port, OPENCLAW_GATEWAY_PORT or gateway.port.`,
        );
      }
      throw err;
    }
    cleanup.push(() => server.close());
    broadcast = (event, payload) => server.broadcast(event, payload);
    channelFeed = new ChannelChangeFeed(
      () => accounts.status(),
      (channels) => server.broadcast("channels.changed", { channels: scrubber.value(channels) }),
    );
    // Clients (`openclaw status`, `channels status`, `agent`) find this port in the record.
    const listening = actualPort;
    writeGatewayRecord(paths.stateDir, { pid: process.pid, port: listening, bind, startedAt });
    cleanup.push(() => removeGatewayRecord(paths.stateDir, process.pid, listening));
    const url = `ws://${bind === "lan" ? "127.0.0.1" : host}:${actualPort}/`;
    const controlUiUrl = controlUi ? `http://127.0.0.1:${actualPort}${controlUi.basePath}` : undefined;
    log.info(`listening on ws://${host}:${actualPort} (bind ${bind}, auth ${auth.mode}; health: http://${host}:${actualPort}/health)`);

    accounts.startAll();
    pipeline.start?.();
    backups.start();
    heartbeat.start();
    cron.start();
    reloader = new ConfigReloader({
      file: paths.configPath,
      ...(options.reloadDebounceMs !== undefined ? { debounceMs: options.reloadDebounceMs } : {}),
      load: async () => (await loadConfig(paths, { env, channels: channelDefinitions })).config,
      apply: createConfigApplier({
        config,
        configPath: paths.configPath,
        runtime,
        accounts,
        scrubber,
        log,
        settled: async () => pipeline?.idle?.(),
        running: () => accepting,
      }),
      log,
    });
    reloader.start();
    reloadNow = () => reloader!.reloadNow();
    cleanup.push(() => reloader?.close());

    const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    let stopping: Promise<void> | undefined;
    let markClosed!: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));

    const stop = async (timeoutMs: number): Promise<void> => {
      accepting = false;
      reloader?.close();
      heartbeat.stop();
      void cron?.stop({ timeoutMs: 0 });
      const deadline = Date.now() + timeoutMs;
      const remaining = () => Math.max(0, deadline - Date.now());
      log.info(`stopping: no new messages or runs; waiting up to ${Math.round(timeoutMs / 100) / 10} s for runs and deliveries in flight`);
      server.broadcast("shutdown", { reason: "stopping", deadlineMs: timeoutMs });
      const drained = await queue.drain({ timeoutMs: remaining() });
      if (drained.timedOut) log.warn("stopping: runs still going at the deadline were aborted");
      await pipeline?.drain?.({ timeoutMs: remaining() });
      // Sessions close last: until then they still send the replies that were in flight (and any
      // message they receive meanwhile is refused unacknowledged, so the platform delivers it again).
      const { timedOut } = await accounts.stopAll(Math.max(remaining(), ACCOUNT_CLOSE_GRACE_MS));
      if (timedOut.length > 0) log.warn(`stopping: account${timedOut.length === 1 ? "" : "s"} ${timedOut.join(", ")} did not stop in time`);
      await pipeline?.close?.();
      await unwind();
      log.info("gateway stopped");
      markClosed();
    };

    return {
      get port() {
        return actualPort;
      },
      host,
      bind,
      url,
      controlUiUrl,
      token: auth.token,
      config,
      runtime,
      queue,
      closed,
      status: () => accounts.status(),
      reloadConfig,
      stop(stopOptions = {}) {
        stopping ??= stop(stopOptions.timeoutMs ?? shutdownTimeoutMs);
        return stopping;
      },
    };
  } catch (err) {
    await unwind();
    throw err;
  }
}

/** Imports legacy JSON sessions into each agent's store through the runtime's open writer. */
function importLegacy(runtime: AgentRuntime, stateDir: string, log: { info(m: string): void; warn(m: string): void }): void {
  for (const dirName of listAgentIdsWithLegacySessions(stateDir)) {
    const agentId = normalizeAgentId(dirName);
    const report = importLegacySessions({ stateDir, agentId: dirName, store: runtime.store(agentId) });
    if (report.imported === 0) continue; // nothing new (already imported on an earlier start)
    log.info(`sessions: imported ${report.imported} legacy session(s) of agent ${agentId} from ${report.source}`);
    for (const problem of report.problems) log.warn(`sessions: ${problem}`);
  }
}
