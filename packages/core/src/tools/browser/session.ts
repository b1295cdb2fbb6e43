import { mkdir } from "node:fs/promises";
import type { BrowserContext, Page } from "playwright-core";
import { resolveChromiumExecutable } from "./executable.js";
import { loadPlaywright } from "./playwright.js";
import type { BrowserGuardOptions } from "./guard.js";
import { startGuardProxy } from "./guard-proxy.js";
import type { BrowserSettings } from "./settings.js";

/** Timer functions the idle close uses; tests inject a manual clock. */
export interface IdleTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimers: IdleTimers = {
  set: (callback, ms) => {
    const t = setTimeout(callback, ms);
    t.unref?.();
    return t;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** One open tab as the model sees it. */
export interface TabInfo {
  id: string;
  url: string;
  title: string;
  current: boolean;
}

export interface BrowserSessionOptions {
  /** Chromium's user-data directory (the agent's own profile). */
  profileDir: string;
  settings: BrowserSettings;
  guard: Omit<BrowserGuardOptions, "allowPrivateNetwork">;
  timers: IdleTimers;
  /** Called once the browser has closed (idle, crash or {@link BrowserSession.close}). */
  onClosed?: () => void;
}

/**
 * One Chromium for one agent: launched with a persistent profile on the first {@link use},
 * closed after `settings.idleTimeoutSeconds` without a call. Tabs get stable ids `t1`, `t2`, ...
 * (popups included); one of them is current.
 */
export class BrowserSession {
  /** Milliseconds the last launch took, until {@link takeLaunchMs} reads it. */
  private launchMs: number | undefined;
  /** Requests the guard refused since the last {@link takeBlocked}. */
  private blocked: string[] = [];
  private context: BrowserContext | undefined;
  private launching: Promise<BrowserContext> | undefined;
  private readonly tabIds = new WeakMap<Page, string>();
  private nextTab = 1;
  private currentPage: Page | undefined;
  private idleHandle: unknown;
  private busy = 0;
  private closed = false;

  constructor(private readonly options: BrowserSessionOptions) {}

  /** The private-network guard this browser applies (settings plus the manager's resolver). */
  get guard(): BrowserGuardOptions {
    return { ...this.options.guard, allowPrivateNetwork: this.options.settings.allowPrivateNetwork };
  }

  /** Whether the session was made with these settings. */
  hasSettings(settings: BrowserSettings): boolean {
    return JSON.stringify(settings) === JSON.stringify(this.options.settings);
  }

  get running(): boolean {
    return this.context !== undefined;
  }

  /** Runs `fn` with the (started) browser; the idle countdown restarts when it settles. */
  async use<T>(fn: (session: BrowserSession, context: BrowserContext) => Promise<T>): Promise<T> {
    this.busy++;
    this.cancelIdle();
    try {
      const context = await this.start();
      return await fn(this, context);
    } finally {
      this.busy--;
      if (this.busy === 0) this.armIdle();
    }
  }

  private async start(): Promise<BrowserContext> {
    if (this.context) return this.context;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private async launch(): Promise<BrowserContext> {
    const { settings } = this.options;
    const executablePath = resolveChromiumExecutable(settings.executablePath);
    await mkdir(this.options.profileDir, { recursive: true });
    const { chromium } = await loadPlaywright();
    // Without allowPrivateNetwork every request goes through the guard proxy (loopback included).
    const proxy = settings.allowPrivateNetwork
      ? undefined
      : await startGuardProxy({ ...this.options.guard, onBlocked: (target) => this.blocked.push(target) });
    const started = performance.now();
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(this.options.profileDir, {
        executablePath,
        headless: settings.headless,
        timeout: settings.timeoutSeconds * 1000,
        args: [
          "--no-first-run",
          "--no-default-browser-check",
          "--disable-dev-shm-usage",
          ...(proxy ? [`--proxy-server=${proxy.server}`, "--proxy-bypass-list=<-loopback>"] : []),
        ],
        handleSIGINT: false,
        handleSIGTERM: false,
      });
    } catch (err) {
      await proxy?.close();
      throw err;
    }
    this.launchMs = Math.round(performance.now() - started);
    context.setDefaultTimeout(settings.timeoutSeconds * 1000);
    if (proxy) context.on("close", () => void proxy.close());
    context.on("page", (page) => this.track(page));
    context.on("close", () => this.forget(context));
    for (const page of context.pages()) this.track(page);
    this.closed = false;
    this.context = context;
    return context;
  }

  private track(page: Page): void {
    if (this.tabIds.has(page)) return;
    this.tabIds.set(page, `t${this.nextTab++}`);
    this.currentPage = page;
    page.on("close", () => {
      if (this.currentPage === page) this.currentPage = this.pages().at(-1);
    });
  }

  private forget(context: BrowserContext): void {
    if (this.context !== context) return;
    this.context = undefined;
    this.currentPage = undefined;
    this.cancelIdle();
    if (!this.closed) {
      this.closed = true;
      this.options.onClosed?.();
    }
  }

  private pages(): Page[] {
    return (this.context?.pages() ?? []).filter((p) => !p.isClosed() && this.tabIds.has(p));
  }

  /** The current tab, opening a blank one when none is left. */
  async current(): Promise<Page> {
    const context = await this.start();
    if (this.currentPage && !this.currentPage.isClosed()) return this.currentPage;
    const page = this.pages().at(-1) ?? (await context.newPage());
    this.track(page);
    this.currentPage = page;
    return page;
  }

  /** Opens a new tab (blank) and makes it current; the blank tab a fresh browser starts with is reused. */
  async newTab(): Promise<Page> {
    const context = await this.start();
    const open = this.pages();
    const blank = open.length === 1 && open[0]!.url() === "about:blank" ? open[0] : undefined;
    const page = blank ?? (await context.newPage());
    this.track(page);
    this.currentPage = page;
    return page;
  }

  tabId(page: Page): string {
    return this.tabIds.get(page) ?? "?";
  }

  /** The tab with this id, or undefined. */
  tab(id: string): Page | undefined {
    return this.pages().find((p) => this.tabIds.get(p) === id);
  }

  switchTo(page: Page): void {
    this.currentPage = page;
  }

  async tabs(): Promise<TabInfo[]> {
    const current = this.currentPage;
    return Promise.all(
      this.pages().map(async (p) => ({
        id: this.tabId(p),
        url: p.url(),
        title: await p.title().catch(() => ""),
        current: p === current,
      })),
    );
  }

  /** How long the browser took to start, when it started since the previous call (else undefined). */
  takeLaunchMs(): number | undefined {
    const ms = this.launchMs;
    this.launchMs = undefined;
    return ms;
  }

  /** Requests the private-network guard refused since the previous call. */
  takeBlocked(): string[] {
    const out = this.blocked;
    this.blocked = [];
    return out;
  }

  /** Closes the browser (idempotent); the next {@link use} starts a new one. */
  async close(): Promise<void> {
    this.cancelIdle();
    const context = this.context ?? (await this.launching?.catch(() => undefined));
    if (!context) return;
    await context.close().catch(() => {});
    this.forget(context);
  }

  private armIdle(): void {
    if (!this.context) return;
    this.cancelIdle();
    this.idleHandle = this.options.timers.set(() => {
      this.idleHandle = undefined;
      if (this.busy === 0) void this.close();
    }, this.options.settings.idleTimeoutSeconds * 1000);
  }

  private cancelIdle(): void {
    if (this.idleHandle !== undefined) this.options.timers.clear(this.idleHandle);
    this.idleHandle = undefined;
  }
}
