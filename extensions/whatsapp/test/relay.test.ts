// The fake WhatsApp across a process boundary: the plugin's sockets go through the relay of
// startFakeWhatsAppServer (as in the fixture plugin other processes load), linking, messages,
// media and sends included.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type FakeWhatsAppServer, remoteSocketFactory, startFakeWhatsAppServer } from "@openclaw/testkit/whatsapp";
import { afterEach, describe, expect, it } from "vitest";
import { createWhatsAppPlugin, type MakeSocket } from "../src/index.js";
import { credentialsDir, loginContext, sendOptions, startAccount, until } from "./helpers.js";

let server: FakeWhatsAppServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the relay for other processes", () => {
  it("links by QR, receives, replies and reconnects through the relay", async () => {
    server = await startFakeWhatsAppServer({ linkedNumber: "+15550009999" });
    const { phone } = server.fake;
    const plugin = createWhatsAppPlugin({
      makeSocket: remoteSocketFactory(server.url) as unknown as MakeSocket,
      reconnect: { initialMs: 10, maxMs: 20, factor: 1, jitter: 0, maxAttempts: 5 },
    });
    const dir = credentialsDir();
    const login = loginContext(plugin, dir);
    const linking = plugin.login(login.ctx);
    await until(() => login.qrs.length === 1);
    expect(login.qrs).toEqual([phone.currentQr]);
    phone.scanQr();
    await expect(linking).resolves.toEqual({ identity: "+15550009999" });

    const account = await startAccount(plugin, dir);
    expect(account.state()).toBe("connected");
    const id = phone.userSends({ from: "+15551112222", text: "hello over the wire" });
    const inbound = await account.waitForInbound((m) => m.messageId === id);
    await account.session.sendText({ chat: inbound.chat, replyToMessageId: id }, "**hi**", sendOptions());
    expect(phone.sent("+15551112222").map((m) => [m.text, m.quotedId])).toEqual([["*hi*", id]]);
    phone.disconnect(408);
    await until(() => account.state() === "connected" && phone.socketsMade >= 3);
    await account.stop();
  });

  it("the fixture plugin's manifest is the channel's", () => {
    const read = (p: string) => readFileSync(fileURLToPath(new URL(p, import.meta.url)), "utf8");
    expect(read("../../../packages/testkit/whatsapp-fixture-plugin/openclaw.plugin.json")).toBe(read("../openclaw.plugin.json"));
  });
});
