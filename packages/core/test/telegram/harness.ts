// Shared setup of the Telegram end-to-end tests: the real gateway with the Telegram plugin,
// talking to the fake Bot API and a fake OpenAI-compatible model server on 127.0.0.1.
import { writeFileSync } from "node:fs";
import path from "node:path";
import telegramPlugin from "@openclaw/telegram";
import type { FakeModelServer, FakeTelegram } from "@openclaw/testkit";
import { startGatewayProcess as startGateway } from "../../src/app/index.js";
import { silentLogger, type Gateway } from "../../src/gateway/index.js";

export interface TelegramGatewayOptions {
  /** The state directory (openclaw.json is written there). */
  home: string;
  llm: FakeModelServer;
  tg: FakeTelegram;
  /** Telegram user ids allowed to DM the bot. */
  allowFrom: readonly number[];
  /** Merged into `channels.telegram`. */
  telegram?: Record<string, unknown>;
  /** Merged into `agents.defaults`. */
  agentDefaults?: Record<string, unknown>;
  /** The models the fake server is configured with under `models.providers.local` (default `[{ id: "llama" }]`). */
  models?: ReadonlyArray<{ id: string; contextWindow?: number }>;
}

/** Writes the config and starts the gateway; resolves once the bot polls the fake Bot API. */
export async function startTelegramGateway(options: TelegramGatewayOptions): Promise<Gateway> {
  const { home, llm, tg } = options;
  const config = {
    agents: { defaults: { model: "local/llama", workspace: path.join(home, "ws"), ...options.agentDefaults } },
    models: { providers: { local: { baseUrl: llm.baseUrl, models: options.models ?? [{ id: "llama" }] } } },
    channels: {
      telegram: { botToken: tg.token, apiRoot: tg.apiRoot, allowFrom: options.allowFrom.map(String), ...options.telegram },
    },
  };
  writeFileSync(path.join(home, "openclaw.json"), JSON.stringify(config));
  const gateway = await startGateway({
    paths: { stateDir: home, configPath: path.join(home, "openclaw.json") },
    port: 0,
    plugins: [telegramPlugin as never],
    log: silentLogger,
    env: { HOME: home },
  });
  await tg.waitFor(() => tg.isPolling, 10_000);
  return gateway;
}

/** What the user sees in a chat: the bot's messages, current text, oldest first. */
export function botTexts(tg: FakeTelegram, chatId: number): string[] {
  return tg
    .chat(chatId)
    .filter((m) => m.from?.id === tg.botUser.id)
    .map((m) => m.text ?? "");
}
