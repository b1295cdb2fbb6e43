import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool, ToolContext, ToolResult } from "../../tool-contract/index.js";
import { resolveToolPath } from "../tool-path.js";
import { BrowserNotFoundError } from "./executable.js";
import { assertNavigable, BrowserRefusedError, isRequestAllowed } from "./guard.js";
import { type BrowserManager, sharedBrowserManager } from "./manager.js";
import type { BrowserSession } from "./session.js";
import { type BrowserSettings, resolveBrowserSettings } from "./settings.js";

const ACTIONS = [
  "open",
  "navigate",
  "snapshot",
  "click",
  "type",
  "select",
  "press",
  "tabs",
  "switch_tab",
  "close_tab",
  "screenshot",
  "pdf",
  "close",
] as const;

const schema = z.strictObject({
  action: z
    .enum(ACTIONS)
    .describe(
      "open: url in a new tab; navigate: url in the current tab (or back/forward/reload); snapshot: accessibility tree with refs; click/type/select/press: act on a ref; tabs: list; switch_tab/close_tab: by tabId; screenshot/pdf: save to the workspace; close: stop the browser.",
    ),
  url: z.string().optional().describe('For open/navigate: http(s) URL, or "back", "forward", "reload" with navigate.'),
  ref: z.string().optional().describe("Element ref from the latest snapshot, e.g. e12 (click, type, select, press, screenshot)."),
  text: z.string().optional().describe("For type: text to enter (replaces the field's value)."),
  submit: z.boolean().optional().describe("For type: press Enter afterwards."),
  values: z.array(z.string()).optional().describe("For select: option values or labels."),
  key: z.string().optional().describe('For press: a key such as "Enter", "Tab", "ArrowDown", "Control+a".'),
  tabId: z.string().optional().describe("For switch_tab/close_tab (default: current), e.g. t2."),
  path: z.string().optional().describe("For screenshot/pdf: workspace-relative file (default browser/<action>-<time>.png|pdf)."),
  fullPage: z.boolean().optional().describe("For screenshot: the whole page, not just the viewport."),
});

type Args = z.output<typeof schema>;

export interface BrowserToolOptions {
  /** Owner of the agents' browsers (default: one process-wide manager). */
  manager?: BrowserManager;
}

function need<K extends keyof Args>(args: Args, key: K): NonNullable<Args[K]> {
  const value = args[key];
  if (value === undefined || value === "") throw new ToolError(`browser: action "${args.action}" needs "${String(key)}".`);
  return value as NonNullable<Args[K]>;
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw.trim());
  } catch {
    throw new ToolError(`"${raw}" is not a valid URL; give a full address such as https://example.com/page.`);
  }
}

async function pageLine(session: BrowserSession, page: Page): Promise<string> {
  const title = await page.title().catch(() => "");
  return `Tab ${session.tabId(page)}: ${title ? `${title} — ` : ""}${page.url()}`;
}

async function go(session: BrowserSession, page: Page, url: URL, signal: AbortSignal): Promise<ToolResult> {
  session.takeBlocked();
  const response = await page.goto(url.href, { waitUntil: "load", signal });
  // A redirect may have ended somewhere the guard refuses (the route guard normally aborts it first).
  const finalUrl = page.url();
  if (!(await isRequestAllowed(finalUrl, session.guard))) {
    await page.goto("about:blank").catch(() => {});
    throw new ToolError(
      `Refused ${url.href}: it led to ${finalUrl}, a non-public address. Set tools.browser.allowPrivateNetwork: true in openclaw.json to allow private-network targets.`,
    );
  }
  return done(session, page, response?.status());
}

async function done(session: BrowserSession, page: Page, status?: number, extra?: string): Promise<ToolResult> {
  const blocked = session.takeBlocked();
  const launchMs = session.takeLaunchMs();
  const lines = [await pageLine(session, page)];
  if (launchMs !== undefined) lines.unshift(`Started the browser (${(launchMs / 1000).toFixed(1)} s).`);
  if (status !== undefined && status >= 400) lines.push(`Status: ${status}`);
  if (extra) lines.push(extra);
  if (blocked.length > 0)
    lines.push(
      `[${blocked.length} request(s) to non-public addresses were blocked (tools.browser.allowPrivateNetwork is false), e.g. ${blocked[0]}]`,
    );
  lines.push("Call snapshot to see the page's elements and refs.");
  return {
    content: lines.join("\n"),
    isError: status !== undefined && status >= 400,
    details: { tabId: session.tabId(page), url: page.url(), status, blocked, ...(launchMs !== undefined ? { launchMs } : {}) },
  };
}

async function snapshot(session: BrowserSession, page: Page, settings: BrowserSettings): Promise<ToolResult> {
  let tree = await page.ariaSnapshot({ mode: "ai" });
  const full = tree.length;
  const cut = full > settings.maxSnapshotChars;
  if (cut)
    tree = `${tree.slice(0, settings.maxSnapshotChars)}\n[Snapshot cut at ${settings.maxSnapshotChars} of ${full} characters (tools.browser.maxSnapshotChars).]`;
  return {
    content: `${await pageLine(session, page)}\n\n${tree}`,
    details: { tabId: session.tabId(page), url: page.url(), chars: full, truncated: cut },
  };
}

async function outputFile(ctx: ToolContext, given: string | undefined, kind: "screenshot" | "pdf"): Promise<{ abs: string; rel: string }> {
  const ext = kind === "pdf" ? "pdf" : "png";
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const target = resolveToolPath(ctx, given ?? `browser/${kind}-${stamp}.${ext}`, { forWrite: true });
  await mkdir(path.dirname(target.path), { recursive: true });
  return { abs: target.path, rel: target.relative };
}

const HISTORY = new Set(["back", "forward", "reload"]);

/** Arguments each action cannot do without; checked before the browser starts. */
const REQUIRED: Partial<Record<Args["action"], Array<keyof Args>>> = {
  open: ["url"],
  navigate: ["url"],
  click: ["ref"],
  type: ["ref", "text"],
  select: ["ref", "values"],
  press: ["key"],
  switch_tab: ["tabId"],
};

/** The checked URL of an open/navigate call (undefined for back/forward/reload and other actions). */
async function navigationTarget(args: Args, session: BrowserSession): Promise<URL | undefined> {
  if (args.action !== "open" && args.action !== "navigate") return undefined;
  const raw = need(args, "url").trim();
  if (args.action === "navigate" && HISTORY.has(raw)) return undefined;
  const url = parseUrl(raw);
  await assertNavigable(url, session.guard);
  return url;
}

/** The element of `args.ref` in the page's latest snapshot; a ref that matches nothing fails at once. */
async function ref(page: Page, args: Args): Promise<Locator> {
  const id = need(args, "ref");
  const locator = page.getByRef(id);
  const found = await locator.count().catch(() => 0);
  if (found === 0) throw new ToolError(`Element ref ${id} is not in the latest snapshot; take a new snapshot and use one of its refs.`);
  return locator;
}

/** Whether clicking the element opens a new tab (a link or form with a target other than the same frame). */
function opensTab(locator: Locator): Promise<boolean> {
  return locator
    .evaluate((el) => {
      const owner = el.closest("a[href], area[href]") ?? (el as unknown as { form?: typeof el | null }).form ?? null;
      const target = owner?.getAttribute("target")?.toLowerCase() ?? "";
      return target !== "" && !["_self", "_parent", "_top"].includes(target);
    })
    .catch(() => false);
}

async function runAction(
  args: Args,
  ctx: ToolContext,
  session: BrowserSession,
  settings: BrowserSettings,
  target: URL | undefined,
): Promise<ToolResult> {
  const { signal } = ctx;
  switch (args.action) {
    case "open":
      return go(session, await session.newTab(), target!, signal);
    case "navigate": {
      const page = await session.current();
      if (target) return go(session, page, target, signal);
      const how = need(args, "url").trim();
      if (how === "back") return done(session, page, (await page.goBack({ signal }))?.status());
      if (how === "forward") return done(session, page, (await page.goForward({ signal }))?.status());
      return done(session, page, (await page.reload({ signal }))?.status());
    }
    case "snapshot":
      return snapshot(session, await session.current(), settings);
    case "click": {
      const page = await session.current();
      const target = await ref(page, args);
      // A click that opens a new tab makes it the current tab; wait for it when the element says so.
      const popup = (await opensTab(target)) ? page.waitForEvent("popup") : undefined;
      await target.click({ signal });
      const opened = await popup?.catch(() => undefined);
      await (opened ?? page).waitForLoadState("load").catch(() => {});
      return done(session, await session.current(), undefined, `Clicked ${args.ref}${opened ? " (it opened a new tab)" : ""}.`);
    }
    case "type": {
      const page = await session.current();
      const target = await ref(page, args);
      await target.fill(need(args, "text"), { signal });
      if (args.submit) {
        await target.press("Enter", { signal });
        await page.waitForLoadState("load").catch(() => {});
      }
      return done(session, page, undefined, `Typed into ${args.ref}${args.submit ? " and pressed Enter" : ""}.`);
    }
    case "select": {
      const page = await session.current();
      const chosen = await (await ref(page, args)).selectOption(need(args, "values"), { signal });
      return done(session, page, undefined, `Selected ${chosen.join(", ") || "nothing"} in ${args.ref}.`);
    }
    case "press": {
      const page = await session.current();
      const key = need(args, "key");
      if (args.ref) await (await ref(page, args)).press(key, { signal });
      else await page.keyboard.press(key);
      await page.waitForLoadState("load").catch(() => {});
      return done(session, await session.current(), undefined, `Pressed ${key}${args.ref ? ` on ${args.ref}` : ""}.`);
    }
    case "tabs": {
      const tabs = await session.tabs();
      const text = tabs.map((t) => `${t.current ? "*" : " "} ${t.id}: ${t.title ? `${t.title} — ` : ""}${t.url}`).join("\n");
      return { content: text || "No tabs open.", details: { tabs } };
    }
    case "switch_tab": {
      const page = session.tab(need(args, "tabId"));
      if (!page) throw new ToolError(`No tab ${args.tabId}; call tabs to list the open ones.`);
      session.switchTo(page);
      await page.bringToFront();
      return done(session, page);
    }
    case "close_tab": {
      const page = args.tabId ? session.tab(args.tabId) : await session.current();
      if (!page) throw new ToolError(`No tab ${args.tabId}; call tabs to list the open ones.`);
      const id = session.tabId(page);
      await page.close();
      const tabs = await session.tabs();
      const now = tabs.find((t) => t.current);
      return {
        content: `Closed tab ${id}.${now ? ` Current tab: ${now.id} (${now.url}).` : " No tabs left."}`,
        details: { closed: id, tabs },
      };
    }
    case "screenshot": {
      const page = await session.current();
      const file = await outputFile(ctx, args.path, "screenshot");
      const bytes = args.ref
        ? await (await ref(page, args)).screenshot({ path: file.abs, signal })
        : await page.screenshot({ path: file.abs, fullPage: args.fullPage === true, signal });
      return {
        content: `Saved a screenshot of ${page.url()} to ${file.rel} (${bytes.length} bytes, PNG). Open it with read or send it as an attachment.`,
        images: [{ mimeType: "image/png", data: Buffer.from(bytes).toString("base64") }],
        details: { path: file.rel, absolutePath: file.abs, bytes: bytes.length, tabId: session.tabId(page) },
      };
    }
    case "pdf": {
      if (!settings.headless) throw new ToolError("pdf needs a headless browser; set tools.browser.headless: true in openclaw.json.");
      const page = await session.current();
      const file = await outputFile(ctx, args.path, "pdf");
      const bytes = await page.pdf({ path: file.abs, printBackground: true });
      return {
        content: `Saved ${page.url()} as PDF to ${file.rel} (${bytes.length} bytes).`,
        details: { path: file.rel, absolutePath: file.abs, bytes: bytes.length, tabId: session.tabId(page) },
      };
    }
    case "close":
      await session.close();
      return { content: "Browser closed.", details: { closed: true } };
  }
}

/**
 * The `browser` tool: drives the agent's own Chromium (playwright-core, Debian's `chromium`).
 * - The browser starts on the first call (profile under `<stateDir>/agents/<id>/browser/profile`)
 *   and closes after `tools.browser.idleTimeoutSeconds` (300) without a call.
 * - Navigation and every request the page makes are refused for loopback, private, link-local and
 *   unique-local addresses unless `tools.browser.allowPrivateNetwork`; only http(s) pages open.
 * - Screenshots and PDFs are saved in the workspace (default `browser/`) and the path returned;
 *   the tool contract carries text only, so no image goes to the model directly.
 */
export function createBrowserTool(options: BrowserToolOptions = {}): AgentTool {
  return defineTool({
    name: "browser",
    groups: ["group:ui"],
    description:
      "Control a real web browser (Chromium): open pages, read them as an accessibility snapshot whose elements carry refs (e12), click, type, select and press keys by ref, manage tabs, save screenshots and PDFs to the workspace. Take a new snapshot after the page changes; refs come from the latest one.",
    schema,
    async run(args, ctx) {
      const settings = resolveBrowserSettings(ctx.config);
      const manager = options.manager ?? sharedBrowserManager();
      const session = await manager.session(ctx.agentId, ctx.stateDir, settings);
      if (args.action === "close" && !session.running) return { content: "The browser is not running.", details: { closed: false } };
      if (args.action === "tabs" && !session.running)
        return { content: "The browser is not running; open a URL first.", details: { tabs: [] } };
      try {
        // Arguments and addresses are checked before the browser starts, so a refused call costs no launch.
        for (const key of REQUIRED[args.action] ?? []) need(args, key);
        const target = await navigationTarget(args, session);
        return await session.use(() => runAction(args, ctx, session, settings, target));
      } catch (err) {
        if (err instanceof ToolError) throw err;
        if (err instanceof BrowserRefusedError || err instanceof BrowserNotFoundError) throw new ToolError(err.message);
        const message = (err as Error).message ?? String(err);
        if (/aria-ref|getByRef|ref=|No element matches/i.test(message) && args.ref)
          throw new ToolError(`Element ref ${args.ref} is not in the latest snapshot; take a new snapshot and use one of its refs.`);
        if (/Timeout \d+ms exceeded/.test(message))
          throw new ToolError(
            `browser ${args.action} timed out after ${settings.timeoutSeconds}s (tools.browser.timeoutSeconds): ${message.split("\n")[0]}`,
          );
        throw new ToolError(`browser ${args.action} failed: ${message.split("\n")[0]}`);
      }
    },
  });
}
