// A gateway in-process with the loopback channel and a fake OpenAI-compatible model: the whole
// pipeline from a user's message on the (in-memory) platform to the reply the user sees.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ChannelCapabilities } from "@openclaw/plugin-sdk";
import {
  createLoopbackPlatform,
  createLoopbackPlugin,
  startFakeOpenAI,
  type FakeModelServer,
  type FakeModelServerOptions,
  type LoopbackChatView,
  type LoopbackPlatform,
  type LoopbackPlatformOptions,
  type LoopbackPluginOptions,
} from "@openclaw/testkit";
import { startGatewayProcess as startGateway } from "../../src/app/index.js";
import type { Gateway } from "../../src/gateway/index.js";

/** The loopback plugin folder, for configs that a CLI process must validate too. */
export const LOOPBACK_PLUGIN_DIR = fileURLToPath(new URL("../../../testkit/loopback-plugin/", import.meta.url));

export interface ChannelHarness {
  /** The HOME of the run; the state dir is `<home>/.openclaw`. */
  home: string;
  paths: { stateDir: string; configPath: string };
  platform: LoopbackPlatform;
  gateway: Gateway;
  model: FakeModelServer;
  logs: string[];
  /** Resolves with the chat's view once `predicate` holds for it (re-checked on every platform change). */
  until(chatId: string, predicate: (view: LoopbackChatView) => boolean, what: string): Promise<LoopbackChatView>;
  /** Resolves when the gateway has no run going and no delivery left to make. */
  settled(): Promise<void>;
  /** Resolves with the first gateway log line (`info|warn|error <message>`) logged from now on that contains `text`. */
  nextLog(text: string, what: string): Promise<string>;
  cleanup(): Promise<void>;
}

export interface ChannelHarnessOptions {
  /** `channels.loopback` (default: DMs open to anyone). */
  channel?: Record<string, unknown>;
  /** Merged over the base config at the top level (e.g. `messages`, `session`). */
  config?: Record<string, unknown>;
  /** Merged into `agents.defaults` (e.g. `blockStreamingChunk`). */
  agentDefaults?: Record<string, unknown>;
  model?: FakeModelServerOptions;
  platform?: LoopbackPlatformOptions;
  capabilities?: Partial<ChannelCapabilities>;
  /** The plugin sessions' per-chat streaming config (see `LoopbackPluginOptions.streamingFor`). */
  streamingFor?: LoopbackPluginOptions["streamingFor"];
  /** Account ids whose bots must be connected before the harness returns (default ["default"]). */
  accounts?: string[];
}

export const OPEN_DMS = { dmPolicy: "open", allowFrom: ["*"] };

/** Starts the model fake, writes the config, starts the gateway with the loopback plugin on port 0. */
export async function startChannelHarness(options: ChannelHarnessOptions = {}): Promise<ChannelHarness> {
  const home = mkdtempSync(path.join(tmpdir(), "openclaw-channels-"));
  const stateDir = path.join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const paths = { stateDir, configPath: path.join(stateDir, "openclaw.json") };
  const model = await startFakeOpenAI(options.model);
  const config = {
    agents: { defaults: { model: "local/llama", skipBootstrap: true, ...options.agentDefaults } },
    models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-local-test", models: [{ id: "llama" }] } } },
    // A CLI process (openclaw pairing) finds the channel through this folder; the gateway below is handed the plugin.
    plugins: { load: { paths: [LOOPBACK_PLUGIN_DIR] } },
    channels: { loopback: options.channel ?? OPEN_DMS },
    ...options.config,
  };
  writeFileSync(paths.configPath, JSON.stringify(config, null, 2));
  const platform = createLoopbackPlatform(options.platform);
  const plugin = createLoopbackPlugin(platform, {
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(options.streamingFor ? { streamingFor: options.streamingFor } : {}),
  });
  const logs: string[] = [];
  const logWaiters = new Set<(line: string) => void>();
  const logLine = (line: string) => {
    logs.push(line);
    for (const waiter of [...logWaiters]) waiter(line);
  };
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      paths,
      port: 0,
      env: { HOME: home },
      plugins: [plugin],
      log: { info: (m) => logLine(`info ${m}`), warn: (m) => logLine(`warn ${m}`), error: (m) => logLine(`error ${m}`) },
      backoff: { initialMs: 5, maxMs: 40 },
    });
  } catch (error) {
    await model.close();
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const accounts = options.accounts ?? ["default"];
  await platform.waitFor(() => accounts.every((a) => platform.connectedBots().includes(a)), {
    what: `bots ${accounts.join(", ")} to connect`,
  });
  return {
    home,
    paths,
    platform,
    gateway,
    model,
    logs,
    until(chatId, predicate, what) {
      return platform.waitFor(
        () => {
          const view = platform.chatView(chatId);
          return predicate(view) ? view : undefined;
        },
        { what, timeoutMs: 10_000 },
      );
    },
    nextLog(text, what) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          logWaiters.delete(waiter);
          reject(new Error(`timed out waiting for ${what}; the gateway logged:\n${logs.join("\n")}`));
        }, 10_000);
        const waiter = (line: string) => {
          if (!line.includes(text)) return;
          clearTimeout(timer);
          logWaiters.delete(waiter);
          resolve(line);
        };
        logWaiters.add(waiter);
      });
    },
    async settled() {
      await gateway.queue.idle();
      await model.idle();
    },
    async cleanup() {
      await gateway.stop({ timeoutMs: 2000 });
      await model.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
