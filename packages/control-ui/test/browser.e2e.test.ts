// The Control UI in headless Chromium against a real gateway and the fakes: log in, chat with the
// fake model and see the streamed reply once, approve a pairing request and see the stranger
// answered through the fake Telegram Bot API, fix a config error. Screenshots of every page go to
// test-artifacts/ (CI keeps them).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import jsQR from "jsqr";
import JSON5 from "json5";
import { PNG } from "pngjs";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser, openLoggedIn, screenshot, startUiGateway, watchConsole, type UiGateway } from "./harness.js";

const run = browserAvailable();
const LINKCHAT_DIR = fileURLToPath(new URL("../../core/test/fixtures/plugins/linkchat/", import.meta.url));
let browser: Browser;
let ui: UiGateway | undefined;

beforeAll(async () => {
  if (run) browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await ui?.stop();
  ui = undefined;
});

const STRANGER = { id: 777, first_name: "Stranger" };

describe.runIf(run)("the Control UI in Chromium", () => {
  it("asks for the token, refuses a wrong one, and logs in from the #token= link without showing it", async () => {
    ui = await startUiGateway();
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(ui.origin);
    await page.getByLabel("Gateway token").fill("not-the-token");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("refused this token");
    await screenshot(page, "login");

    await page.getByLabel("Gateway token").fill(ui.token);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.locator("nav.nav").waitFor();
    await page.getByRole("textbox", { name: "Message" }).waitFor();

    // The link: the token leaves the address bar at once, stays in this tab's sessionStorage only.
    const other = await context.newPage();
    await other.goto(`${ui.origin}#token=${encodeURIComponent(ui.token)}`);
    await other.locator("nav.nav").waitFor();
    expect(other.url()).not.toContain(ui.token);
    expect(await other.content()).not.toContain(ui.token);
    expect(await other.evaluate(() => localStorage.getItem("openclaw.token"))).toBeNull();
    expect(problems.filter((p) => !p.includes("WebSocket"))).toEqual([]);
    await context.close();
  }, 60_000);

  it("chats with the fake model: a tool activity line, the reply streams in, then all shows exactly once", async () => {
    ui = await startUiGateway({ chunkDelayMs: 15 });
    const reply = "Hello from the fake model, streamed in small pieces so the page has something to show.";
    ui.llm.enqueue([{ toolCall: { name: "write", arguments: { path: "note.txt", content: "hello" } } }], [{ text: reply, chunkChars: 4 }]);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await openLoggedIn(page, ui);
    // Record every text the live reply showed while streaming.
    await page.evaluate(() => {
      const seen: string[] = [];
      const activity = new Set<string>();
      Object.assign(window, { seen, activity });
      new MutationObserver(() => {
        const live = document.querySelector(".live");
        if (live) seen.push(live.querySelector(".msg.assistant")?.textContent ?? "");
        for (const line of document.querySelectorAll(".live .activity")) activity.add(line.textContent ?? "");
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("hi there");
    await box.press("Enter");
    await page.locator(".messages .msg.assistant", { hasText: reply }).waitFor();
    await page.locator(".live").waitFor({ state: "detached" });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const partial = seen.filter((t) => t.length > 0 && t.length < reply.length);
    expect(partial.length).toBeGreaterThan(2);
    for (const t of seen) expect(reply.startsWith(t)).toBe(true);
    const texts = await page.locator(".messages .msg").allTextContents();
    expect(texts).toEqual(["hi there", reply]);
    expect(ui.llm.requests).toHaveLength(2);
    // The tool ran live as an activity line, and stays in the history folded with its result.
    const activity = await page.evaluate(() => [...(window as unknown as { activity: Set<string> }).activity]);
    expect(activity.some((line) => /Running write/.test(line))).toBe(true);
    expect(activity.some((line) => /^(Ran|Failed) write \(\d+ ms\)$/.test(line))).toBe(true);
    const tool = page.locator(".messages details.tool");
    expect(await tool.count()).toBe(1);
    await tool.locator("summary").click();
    expect(await tool.locator("h4").allTextContents()).toEqual(["Arguments", "Result"]);
    expect(await tool.locator("pre").first().textContent()).toContain('"path": "note.txt"');
    await screenshot(page, "chat");

    // A reload shows the same conversation from the history, and /new starts over.
    await page.reload();
    await page.locator(".messages .msg.assistant", { hasText: reply }).waitFor();
    await page.getByRole("button", { name: "New session" }).click();
    await expect.poll(() => page.locator(".messages .msg.assistant", { hasText: reply }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it("Stop aborts the streaming reply: the model call is cut and the page takes input again", async () => {
    ui = await startUiGateway();
    ui.llm.enqueue([{ text: "The first half arrives, " }, { until: new Promise(() => undefined) }, { text: "the second never does." }]);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await openLoggedIn(page, ui);
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("tell me a long story");
    await box.press("Enter");
    await page.locator(".live .msg.assistant", { hasText: "The first half arrives" }).waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await page.locator(".live").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Send" }).waitFor();
    await expect.poll(() => ui!.llm.requests[0]?.outcome).toBe("client_closed");
    expect(await page.locator(".messages").textContent()).not.toContain("the second never does");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("pages back through a long history when scrolled to the top, in order, without duplicates", async () => {
    ui = await startUiGateway();
    const key = "agent:main:webchat:longhistory";
    const store = ui.gateway.runtime.store("main");
    const { sessionId } = store.getOrCreateSession(key);
    const texts = Array.from({ length: 120 }, (_, i) => `message ${i + 1}`);
    store.appendEvents(
      sessionId,
      texts.map((text, i) => ({
        type: "message",
        message: i % 2 === 0 ? { role: "user", content: text } : { role: "assistant", content: [{ type: "text", text }] },
      })),
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await openLoggedIn(page, ui, `#/chat?session=${encodeURIComponent(key)}`);
    const rows = page.locator(".messages .msg");
    await rows.filter({ hasText: /^message 120$/ }).waitFor();
    const firstPage = await rows.allTextContents();
    expect(firstPage.length).toBeLessThan(texts.length);
    expect(firstPage).toEqual(texts.slice(texts.length - firstPage.length));
    // Scrolling to the top loads the page before, until the first message.
    for (let i = 0; i < 5 && (await rows.count()) < texts.length; i += 1) {
      const before = await rows.count();
      await page.locator(".messages").evaluate((el) => el.scrollTo(0, 0));
      await expect.poll(() => rows.count()).toBeGreaterThan(before);
    }
    expect(await rows.allTextContents()).toEqual(texts);
    await page.getByRole("button", { name: "Load earlier messages" }).waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it("approves a stranger's pairing request; the stranger's next message is answered on Telegram", async () => {
    ui = await startUiGateway({ telegram: true });
    const tg = ui.tg!;
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    tg.sendUserMessage({ chat: { id: STRANGER.id, type: "private" }, from: STRANGER, text: "hi bot" });
    const botSays = () =>
      tg
        .chat(STRANGER.id)
        .filter((m) => m.from?.id === tg.botUser.id)
        .map((m) => m.text ?? "");
    const codeMessage = await tg.waitFor(() => botSays().find((t) => /pairing/i.test(t)), 10_000);
    const code = /\b([A-HJ-NP-Z2-9]{8})\b/.exec(codeMessage)![1]!;

    await openLoggedIn(page, ui, "#/pairing");
    const row = page.locator(`tr[data-code="${code}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(String(STRANGER.id));
    await screenshot(page, "pairing");
    await row.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("status").filter({ hasText: "Approved" }).waitFor();
    await row.waitFor({ state: "detached" });
    await page.locator('[data-allowlist="telegram"]', { hasText: String(STRANGER.id) }).waitFor();
    expect(ui.llm.requests).toHaveLength(0);

    ui.llm.enqueue([{ text: "Welcome, friend." }]);
    tg.sendUserMessage({ chat: { id: STRANGER.id, type: "private" }, from: STRANGER, text: "hi again" });
    await tg.waitFor(() => botSays().includes("Welcome, friend."), 15_000);

    // The other pages, with a live channel and a real session in them.
    await page.evaluate(() => (location.hash = "#/channels"));
    await page.locator('[data-channel="telegram"] .badge', { hasText: "connected" }).waitFor();
    await screenshot(page, "channels");
    await page.evaluate(() => (location.hash = "#/sessions"));
    await page.locator(".session-list button").first().click();
    await page.locator(".transcript .msg.assistant", { hasText: "Welcome, friend." }).waitFor();
    await screenshot(page, "sessions");
    await page.evaluate(() => (location.hash = "#/status"));
    await page.getByTestId("version").waitFor();
    // The log tail shows the gateway's own lines as text.
    await page
      .getByTestId("log")
      .filter({ hasText: /info\s+\S/ })
      .waitFor();
    expect(await page.getByTestId("log").textContent()).not.toContain("[object");
    await screenshot(page, "status");
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it("shows a config error at its line, and saving the fix writes a valid file", async () => {
    ui = await startUiGateway();
    // The file on disk gets broken behind the gateway's back (it keeps the running config).
    const broken = JSON5.parse(readFileSync(ui.configPath, "utf8")) as { agents: { defaults: Record<string, unknown> } };
    broken.agents.defaults.model = 42;
    writeFileSync(ui.configPath, `${JSON.stringify(broken, null, 2)}\n`);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await openLoggedIn(page, ui, "#/config");
    const issue = page.locator(".issue-list .issue").first();
    await issue.waitFor();
    expect(await issue.getAttribute("data-path")).toMatch(/^agents\.defaults\.model/);
    const badLine = page.locator(".gutter li.bad");
    await badLine.first().waitFor();
    const lineNo = Number(await badLine.first().textContent());
    const editor = page.getByRole("textbox", { name: "Config file" });
    expect((await editor.inputValue()).split("\n")[lineNo - 1]).toContain('"model": 42');
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await screenshot(page, "config-error");

    await editor.fill((await editor.inputValue()).replace('"model": 42', '"model": "local/llama"'));
    await page.locator(".issues .ok", { hasText: "The config is valid." }).waitFor();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const saved = JSON5.parse(readFileSync(ui.configPath, "utf8")) as { agents: { defaults: { model: unknown } } };
    expect(saved.agents.defaults.model).toBe("local/llama");
    await expect.poll(() => page.locator(".gutter li.bad").count()).toBe(0);
    await screenshot(page, "config");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

describe.runIf(run)("the WhatsApp QR on the Channels page", () => {
  it("draws the QR that channels.status carries as a code a phone can read", async () => {
    ui = await startUiGateway();
    const qrText = "2@Yq0n9sHc3kP+fake-link-ref,Jm2xk1c/fakeKey=,Q0bKfakeIdentity=,fakeAdv==";
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    // The gateway answers as a WhatsApp account waiting for its link would (this gateway runs no
    // WhatsApp account, so the answer is amended on the wire; everything else is the real API).
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { type: string; id?: string; payload?: { channels?: unknown[] } };
        if (frame.type === "res" && frame.payload && Array.isArray(frame.payload.channels)) {
          frame.payload.channels = [
            {
              channel: "whatsapp",
              label: "WhatsApp",
              accounts: [
                { channel: "whatsapp", accountId: "default", state: "needs-login", restarts: 0, login: { kind: "qr", data: qrText } },
              ],
            },
          ];
        }
        ws.send(JSON.stringify(frame));
      });
    });
    await openLoggedIn(page, ui, "#/channels");
    const svg = page.locator('[data-channel="whatsapp"] svg.qr');
    await svg.waitFor();
    const png = PNG.sync.read(await svg.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(qrText);
    await screenshot(page, "channels-qr");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

describe.runIf(run)("linking an account by QR code from the Channels page", () => {
  it("a click starts the link in the gateway and the page draws the account's own QR code", async () => {
    // A channel linked like WhatsApp Web (core's test fixture): it waits for a link, then shows a QR.
    const linkchat = (await import(pathToFileURL(path.join(LINKCHAT_DIR, "index.js")).href)) as {
      default: unknown;
      QR_CODES: string[];
    };
    ui = await startUiGateway({ plugins: [linkchat.default], config: { channels: { linkchat: { loginMode: "wait" } } } });
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await openLoggedIn(page, ui, "#/channels");
    const account = page.locator('[data-channel="linkchat"]');
    await account.getByText("needs linking").waitFor();
    await account.locator("button.link-account").click();
    const svg = account.locator("svg.qr");
    await svg.waitFor();
    const png = PNG.sync.read(await svg.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(linkchat.QR_CODES[0]);
    await screenshot(page, "channels-link");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
