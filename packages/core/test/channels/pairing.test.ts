import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe("DM pairing through the gateway", () => {
  it("gives a stranger a pairing code without reaching the model; after `openclaw pairing approve` the next DM is answered", async () => {
    h = await startChannelHarness({ channel: {} }); // dmPolicy defaults to "pairing"
    const { platform } = h;

    await platform.userSays({ sender: { id: "stranger-1", name: "Sam" }, text: "hi, who are you?" });
    const view = await h.until("stranger-1", (v) => v.messages.length === 1, "the pairing reply");
    const code = /pairing code: ([A-Z0-9]{8})/i.exec(view.texts[0]!)?.[1];
    expect(code, view.texts[0]).toBeDefined();
    expect(view.texts[0]).toContain(`openclaw pairing approve loopback ${code}`);

    // The same stranger again: no second reply, and still nothing for the model.
    await platform.userSays({ sender: "stranger-1", text: "hello??" });
    await h.gateway.queue.idle();
    expect(h.model.requests).toHaveLength(0);

    const approved = await runCli(["pairing", "approve", "loopback", code!], { home: h.home });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain("Approved Sam (stranger-1) on loopback");

    h.model.enqueue([{ text: "Hello Sam, nice to meet you." }]);
    await platform.userSays({ sender: "stranger-1", text: "am I in now?" });
    const answered = await h.until("stranger-1", (v) => v.texts.includes("Hello Sam, nice to meet you."), "the agent's answer");
    expect(answered.texts).toHaveLength(2); // the pairing reply and the answer, nothing else
    expect(h.model.requests).toHaveLength(1);
    expect(JSON.stringify(h.model.requests[0]!.body.messages)).toContain("am I in now?");
    expect(JSON.stringify(h.model.requests[0]!.body.messages)).not.toContain("who are you");
  });

  it("drops DMs when dmPolicy is allowlist and the sender is not listed, without telling them", async () => {
    h = await startChannelHarness({ channel: { dmPolicy: "allowlist", allowFrom: ["friend"] } });
    h.model.enqueue([{ text: "hi friend" }]);
    await h.platform.userSays({ sender: "stranger-2", text: "let me in" });
    await h.platform.userSays({ sender: "friend", text: "hello" });
    await h.until("friend", (v) => v.texts.includes("hi friend"), "the friend's answer");
    await h.gateway.stop();
    expect(h.platform.chatView("stranger-2").messages).toEqual([]);
    expect(h.model.requests).toHaveLength(1);
  });
});
