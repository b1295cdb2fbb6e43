// The real-browser test setup: a gateway started in this process with the built UI, the Telegram
// plugin and the fakes (OpenAI-compatible model, Telegram Bot API) on 127.0.0.1, and headless
// Chromium driven by playwright-core. Screenshots go to test-artifacts/ (ignored by git).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import telegramPlugin from "@openclaw/telegram";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram } from "@openclaw/testkit";
import { chromium, type Browser, type Page } from "playwright-core";
// Core depends on this package (it ships the built UI), so the tests reach core's build by path.
import { startGatewayProcess } from "../../core/dist/app/index.js";
import { silentLogger, type Gateway } from "../../core/dist/gateway/index.js";
import { findChromiumOnPath } from "../../core/dist/tools/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built app (`pnpm --filter @openclaw/control-ui build`). */
export const UI_DIST = path.resolve(here, "../dist");
export const ARTIFACTS = path.resolve(here, "../test-artifacts");
/** The browser: `CHROMIUM_PATH`, else `chromium` / `chromium-browser` on PATH (as the browser tool finds it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? findChromiumOnPath();

/**
 * Whether the browser tests can run. Without Chromium they are skipped locally but fail under CI
 * (`CI` set), so a machine that lost the browser cannot pass by skipping.
 */
export function browserAvailable(): boolean {
  const present = CHROMIUM !== undefined && existsSync(CHROMIUM);
  if (!present && process.env.CI) {
    throw new Error(
      `Chromium is missing (${CHROMIUM ?? "no chromium or chromium-browser on PATH"}): run scripts/install-chromium.sh or set CHROMIUM_PATH; CI does not skip the browser tests.`,
    );
  }
  if (!existsSync(path.join(UI_DIST, "index.html"))) {
    throw new Error(`The Control UI is not built (${UI_DIST}/index.html is missing): run \`pnpm --filter @openclaw/control-ui build\`.`);
  }
  return present;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

export interface UiGateway {
  gateway: Gateway;
  llm: FakeModelServer;
  tg: FakeTelegram | undefined;
  home: string;
  configPath: string;
  /** `http://127.0.0.1:<port>/`. */
  origin: string;
  token: string;
  stop(): Promise<void>;
}

/** Starts the fakes and a gateway serving the built UI; `telegram: true` adds a Telegram bot nobody is allowed on yet. */
export async function startUiGateway(
  options: { telegram?: boolean; config?: Record<string, unknown>; chunkDelayMs?: number; plugins?: unknown[] } = {},
): Promise<UiGateway> {
  const home = mkdtempSync(path.join(tmpdir(), "openclaw-ui-"));
  const llm = await startFakeOpenAI(options.chunkDelayMs !== undefined ? { chunkDelayMs: options.chunkDelayMs } : {});
  const tg = options.telegram ? await startFakeTelegram() : undefined;
  const configPath = path.join(home, "openclaw.json");
  const config = {
    agents: { defaults: { model: "local/llama", workspace: path.join(home, "ws"), skipBootstrap: true } },
    models: { providers: { local: { baseUrl: llm.baseUrl, models: [{ id: "llama" }] } } },
    ...(tg ? { channels: { telegram: { botToken: tg.token, apiRoot: tg.apiRoot, allowFrom: [] } } } : {}),
    ...options.config,
  };
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const gateway = await startGatewayProcess({
    paths: { stateDir: home, configPath },
    port: 0,
    plugins: [...(tg ? [telegramPlugin] : []), ...(options.plugins ?? [])] as never[],
    log: silentLogger,
    env: { HOME: home },
    controlUiDir: UI_DIST,
  } as Parameters<typeof startGatewayProcess>[0]);
  if (tg) await tg.waitFor(() => tg.isPolling, 10_000);
  const token = gateway.token;
  if (!token) throw new Error("the gateway runs without a token; the UI tests need one");
  return {
    gateway,
    llm,
    tg,
    home,
    configPath,
    origin: `http://127.0.0.1:${gateway.port}/`,
    token,
    stop: async () => {
      await gateway.stop({ timeoutMs: 5000 });
      await llm.close();
      await tg?.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Opens the UI already logged in through the `#token=` link, on `route` (e.g. "#/pairing" after login). */
export async function openLoggedIn(page: Page, ui: UiGateway, route = ""): Promise<void> {
  await page.goto(`${ui.origin}#token=${encodeURIComponent(ui.token)}`);
  await page.locator("nav.nav").waitFor();
  if (route) await page.evaluate((hash) => (location.hash = hash), route);
}

/** Saves a full-page screenshot as test-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Fails the test on any page error or CSP violation the browser reports. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/favicon/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  return problems;
}
