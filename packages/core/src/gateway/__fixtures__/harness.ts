// Test harness: a gateway in-process on port 0 with a temp stateDir, a fake OpenAI-compatible
// model and a tiny channel plugin written with the SDK alone.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  AccountConfigError,
  defineChannelPlugin,
  listAccountIds,
  SPECIFICATION_VERSION,
  type AccountContext,
  type ChannelPlugin,
  type OutboundTarget,
} from "@openclaw/plugin-sdk";
import { channelConfigSchema, defineChannelConfig, previewStreamingSchema, STANDARD_FLAT_KEYS } from "@openclaw/plugin-sdk/config";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { z } from "zod";
import type { AgentEvent } from "../../agent/index.js";
import { GatewayClient } from "../client.js";
import { startGatewayProcess as startGateway } from "../../app/index.js";
import type { Gateway, GatewayLogger, GatewayOptions } from "../types.js";

/** The fake channel's account: its token and name. */
export interface FakeAccount {
  accountId: string;
  token: string;
}

/** One session of an account (what its `closed` waits for); `n` counts sessions of that account from 1. */
export type FakeStart = (ctx: AccountContext<FakeAccount>, n: number) => Promise<void>;

/** Runs until stopped, reporting "connected" as `@<account>_bot`. */
export const connectAndWait: FakeStart = (ctx) =>
  new Promise<void>((resolve) => {
    ctx.status({ state: "connected", identity: `@${ctx.accountId}_bot` });
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });

export const fakeChannelConfig = defineChannelConfig({
  id: "fakechat",
  label: "Fake Chat",
  packageName: "openclaw-channel-fakechat",
  capabilities: {
    chatTypes: ["direct", "group"],
    edit: false,
    delete: false,
    media: false,
    reactions: false,
    threads: false,
    typing: false,
    textLimit: 4000,
  },
  delivery: { previewModes: ["partial"], defaultMode: "partial", blockReplies: "explicit" },
  schema: channelConfigSchema({
    description: "A channel that lives in a test.",
    textChunkLimit: 4000,
    streaming: previewStreamingSchema({ modes: ["off", "partial"], defaultMode: "partial" }),
    shared: { token: z.string().optional().describe("Bot token.") },
  }),
  migrations: [{ kind: "streaming-aliases", modes: ["off", "partial"], flatKeys: [...STANDARD_FLAT_KEYS] }],
});

export interface FakeChannel {
  plugin: ChannelPlugin<FakeAccount>;
  /** Every start call, in order: account id and run number. */
  starts: { accountId: string; n: number }[];
  /** Every text sent, in order. */
  sent: { accountId: string; target: OutboundTarget; text: string }[];
  /** The latest AccountContext per account. */
  contexts: Map<string, AccountContext<FakeAccount>>;
}

/** A channel plugin defined with the SDK only. `start` decides what each session does until it closes. */
export function makeFakeChannel(start: FakeStart = connectAndWait): FakeChannel {
  const starts: FakeChannel["starts"] = [];
  const sent: FakeChannel["sent"] = [];
  const contexts = new Map<string, AccountContext<FakeAccount>>();
  const runs = new Map<string, number>();
  const plugin = defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "fakechat",
    meta: { label: "Fake Chat", docsPath: "docs/channels/fakechat.md", blurb: "A test channel." },
    config: fakeChannelConfig,
    listAccounts: (cfg) => listAccountIds(cfg, typeof cfg.token === "string"),
    resolveAccount({ accountId, config }): FakeAccount {
      const token = (config as { token?: unknown }).token;
      if (typeof token !== "string" || token === "") {
        throw new AccountConfigError(
          `channels.fakechat.accounts.${accountId}.token is not set; add the bot token`,
          `channels.fakechat.accounts.${accountId}.token`,
        );
      }
      return { accountId, token };
    },
    async connect(ctx: AccountContext<FakeAccount>) {
      const n = (runs.get(ctx.accountId) ?? 0) + 1;
      runs.set(ctx.accountId, n);
      starts.push({ accountId: ctx.accountId, n });
      contexts.set(ctx.accountId, ctx);
      const account = ctx.account;
      return {
        async sendText(target: OutboundTarget, text: string) {
          sent.push({ accountId: account.accountId, target, text });
          return { messageId: String(sent.length) };
        },
        closed: start(ctx, n),
      };
    },
  }) as ChannelPlugin<FakeAccount>;
  return { plugin, starts, sent, contexts };
}

export interface Harness {
  dir: string;
  paths: { stateDir: string; configPath: string };
  fake: FakeModelServer;
  gateway: Gateway;
  logs: string[];
  log: GatewayLogger;
  connect(token?: string): Promise<GatewayClient>;
  cleanup(): Promise<void>;
}

export interface HarnessOptions extends Partial<Omit<GatewayOptions, "paths">> {
  /** Merged over the base config (model provider pointing at the fake). */
  config?: Record<string, unknown>;
}

/** Writes the config (base + `config`) into a temp stateDir without starting anything. */
export async function prepareHarness(options: HarnessOptions = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "openclaw-gateway-"));
  const paths = { stateDir: dir, configPath: path.join(dir, "openclaw.json") };
  const fake = await startFakeOpenAI();
  const config = {
    agents: { defaults: { model: "local/llama", skipBootstrap: true } },
    models: { providers: { local: { baseUrl: fake.baseUrl, apiKey: "sk-local-provider-secret", models: [{ id: "llama" }] } } },
    ...(options.config ?? {}),
  };
  writeFileSync(paths.configPath, JSON.stringify(config, null, 2));
  const logs: string[] = [];
  const log: GatewayLogger = {
    info: (m) => logs.push(`info ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  return { dir, paths, fake, logs, log };
}

/** Starts a gateway on 127.0.0.1:0 with the fake model, a clean env and fast backoff. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const prepared = await prepareHarness(options);
  const { config: _config, ...rest } = options;
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      paths: prepared.paths,
      port: 0,
      env: { HOME: prepared.dir },
      plugins: [],
      log: prepared.log,
      backoff: { initialMs: 5, maxMs: 40 },
      // Isolated from the channels runtime: tests that need inbound pass their own pipeline.
      pipelineFactory: () => ({ handleInbound: async () => undefined }),
      ...rest,
    });
  } catch (err) {
    await prepared.fake.close();
    rmSync(prepared.dir, { recursive: true, force: true });
    throw err;
  }
  const clients: GatewayClient[] = [];
  return {
    ...prepared,
    gateway,
    async connect(token = gateway.token) {
      const client = await GatewayClient.connect(gateway.url, token !== undefined ? { token } : {});
      clients.push(client);
      return client;
    },
    async cleanup() {
      await Promise.all(clients.map((c) => c.close()));
      await gateway.stop({ timeoutMs: 1000 });
      await prepared.fake.close();
      rmSync(prepared.dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `predicate()` holds, checking after every macrotask (bounded by the test timeout). */
export async function until(predicate: () => boolean, what = "condition", timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Collects the `agent` events of one control run until its `run_end`. */
export function collectRun(client: GatewayClient): {
  events: Map<string, AgentEvent[]>;
  ended(runId: string): Promise<AgentEvent[]>;
  first(runId: string, type: string): Promise<void>;
} {
  const events = new Map<string, AgentEvent[]>();
  const waiters: { runId: string; test: (e: AgentEvent) => boolean; resolve: () => void }[] = [];
  client.onEvent((frame) => {
    if (frame.event !== "agent") return;
    const { runId, event } = frame.payload as { runId: string; event: AgentEvent };
    const list = events.get(runId) ?? [];
    list.push(event);
    events.set(runId, list);
    for (const w of [...waiters]) {
      if (w.runId === runId && w.test(event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  const wait = (runId: string, test: (e: AgentEvent) => boolean) =>
    (events.get(runId) ?? []).some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ runId, test, resolve }));
  return {
    events,
    ended: async (runId) => {
      await wait(runId, (e) => e.type === "run_end");
      return events.get(runId)!;
    },
    first: (runId, type) => wait(runId, (e) => e.type === type),
  };
}
