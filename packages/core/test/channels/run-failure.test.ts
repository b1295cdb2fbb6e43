import { afterEach, describe, expect, it } from "vitest";
import { GatewayClient } from "../../src/gateway/index.js";
import { runCli } from "../helpers/cli.js";
import { startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

// What a misbehaving upstream might put in its error body: an internal address and a config key.
const INTERNAL_URL = "http://10.20.30.40:8080/v1/internal";
const CONFIG_KEY = "models.providers.local.apiKey";

describe("a failed run in a chat", () => {
  it("tells the chat only a short notice with the category; the detail is in the log and in status", async () => {
    h = await startChannelHarness();
    h.model.enqueue([{ error: { status: 500, message: `upstream ${INTERNAL_URL} refused the call; check ${CONFIG_KEY}` } }]);
    await h.platform.userSays({ sender: "u1", text: "hello?" });
    const view = await h.until("u1", (v) => v.messages.length === 1, "the failure notice");
    await h.settled();
    const notice = view.texts[0]!;
    expect(notice).toMatch(/^Sorry — the model provider failed \(error\)\. The details are in the gateway log; run `openclaw status`\.$/);
    expect(notice).not.toContain("10.20.30.40");
    expect(notice).not.toContain(CONFIG_KEY);

    expect(h.logs.some((l) => l.startsWith("error ") && l.includes(INTERNAL_URL) && l.includes("[other]"))).toBe(true);

    const client = await GatewayClient.connect(h.gateway.url, { token: h.gateway.token! });
    try {
      const status = await client.request<{ recentErrors: Record<string, unknown>[] }>("status");
      expect(status.recentErrors).toEqual([
        expect.objectContaining({
          agentId: "main",
          sessionKey: expect.stringContaining("loopback"),
          category: "other",
          kind: "unknown",
          message: expect.stringContaining(INTERNAL_URL),
          at: expect.any(Number),
        }),
      ]);
    } finally {
      await client.close();
    }
    const cli = await runCli(["status"], { home: h.home });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain("Recent run errors (1, newest first):");
    expect(cli.stdout).toContain(`upstream ${INTERNAL_URL} refused the call; check ${CONFIG_KEY}`);
  });

  it("names the coarse category: a 429 is rate limited", async () => {
    h = await startChannelHarness();
    h.model.enqueue([{ error: { status: 429, message: `slow down, see ${INTERNAL_URL}` } }]);
    await h.platform.userSays({ sender: "u1", text: "hi" });
    const view = await h.until("u1", (v) => v.messages.length === 1, "the failure notice");
    expect(view.texts[0]).toContain("the model provider failed (rate limited)");
    expect(view.texts[0]).not.toContain("10.20.30.40");
  });
});
