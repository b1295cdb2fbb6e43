// Shared by the onboarding tests: the fakes (model server, Bot API), a clean environment and the
// config `openclaw onboard` wrote.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { cliEnv } from "../helpers/cli.js";

/** The Telegram plugin folder of this checkout (found through plugins.load.paths). */
export const TELEGRAM_DIR = fileURLToPath(new URL("../../../../extensions/telegram", import.meta.url));
export const LLM_KEY = "sk-onboard-test-4f9a2c";
export const OWNER = { id: 4242, first_name: "Owner", username: "owner" };

export interface Fakes {
  llm: FakeModelServer;
  tg: FakeTelegram;
  close(): Promise<void>;
}

export async function startFakes(): Promise<Fakes> {
  const llm = await startFakeOpenAI({ models: ["fake-mini", "fake-pro"], expectedApiKey: LLM_KEY });
  const tg = await startFakeTelegram();
  return { llm, tg, close: async () => void (await Promise.all([llm.close(), tg.close()])) };
}

/** `--set` flags that point onboarding at the checkout's Telegram plugin and the fake Bot API. */
export function fakeSets(tg: FakeTelegram): string[] {
  return ["--set", `plugins.load.paths=${JSON.stringify([TELEGRAM_DIR])}`, "--set", `channels.telegram.apiRoot=${tg.apiRoot}`];
}

/** The CLI's environment without any key a developer's shell may hold. */
export function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = cliEnv(home, extra);
  for (const name of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY", "TELEGRAM_BOT_TOKEN"])
    if (!(name in extra)) delete env[name];
  return env;
}

export const configPath = (home: string) => path.join(home, ".openclaw", "openclaw.json");

export function readConfig(home: string): any {
  return JSON.parse(readFileSync(configPath(home), "utf8"));
}

export const mode = (file: string) => statSync(file).mode & 0o777;

export const configExists = (home: string) => existsSync(configPath(home));
