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

  it("an approved stranger gets a session of their own: never the owner's turns, never another stranger's", async () => {
    h = await startChannelHarness({ channel: { allowFrom: ["owner"] } });
    const { platform } = h;
    h.model.enqueue([{ text: "Noted, the safe code is 4711." }]);
    await platform.userSays({ sender: "owner", text: "remember: the safe code is 4711" });
    await h.until("owner", (v) => v.texts.includes("Noted, the safe code is 4711."), "the owner's answer");

    // Two strangers pair and are approved.
    for (const stranger of ["sam", "kim"]) {
      await platform.userSays({ sender: stranger, text: "hi" });
      const view = await h.until(stranger, (v) => v.messages.length === 1, "the pairing reply");
      const code = /pairing code: ([A-Z0-9]{8})/i.exec(view.texts[0]!)?.[1];
      expect((await runCli(["pairing", "approve", "loopback", code!], { home: h.home })).code).toBe(0);
    }
    h.model.enqueue([{ text: "Hi Sam." }], [{ text: "Hi Kim." }]);
    await platform.userSays({ sender: "sam", text: "sam here: what is the safe code?" });
    await h.until("sam", (v) => v.texts.includes("Hi Sam."), "Sam's answer");
    await platform.userSays({ sender: "kim", text: "kim here" });
    await h.until("kim", (v) => v.texts.includes("Hi Kim."), "Kim's answer");

    const [ownerTurn, samTurn, kimTurn] = h.model.requests.map((r) => JSON.stringify(r.body.messages));
    expect(ownerTurn).toContain("4711");
    expect(samTurn).not.toContain("4711");
    expect(kimTurn).not.toContain("4711");
    expect(kimTurn).not.toContain("sam here");
  });
});
