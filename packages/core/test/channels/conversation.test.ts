import { afterEach, describe, expect, it } from "vitest";
import { GatewayClient } from "../../src/gateway/index.js";
import { OPEN_DMS, startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const userTexts = (harness: ChannelHarness, request: number): string =>
  JSON.stringify(harness.model.requests[request]!.body.messages.filter((m: { role: string }) => m.role === "user"));

describe("conversations through the gateway", () => {
  it("in a group with requireMention, only messages that mention the bot reach the agent", async () => {
    h = await startChannelHarness({ channel: { ...OPEN_DMS, groups: { team: { requireMention: true } } } });
    h.model.enqueue([{ text: "Here to help the team." }]);
    await h.platform.userSays({ chat: "team", kind: "group", title: "Team", sender: "ann", text: "lunch at noon?", mentionsBot: false });
    await h.platform.userSays({ chat: "elsewhere", kind: "group", sender: "ann", text: "@bot hello", mentionsBot: true });
    await h.platform.userSays({ chat: "team", kind: "group", sender: "bob", text: "@bot can you help?", mentionsBot: true });
    await h.until("team", (v) => v.texts.includes("Here to help the team."), "the answer in the group");
    await h.gateway.stop();
    expect(h.model.requests).toHaveLength(1);
    expect(userTexts(h, 0)).toContain("can you help?");
    expect(userTexts(h, 0)).not.toContain("lunch at noon");
    expect(h.platform.chatView("team").texts).toEqual(["Here to help the team."]);
    expect(h.platform.chatView("elsewhere").messages).toEqual([]); // not in groups: fail-closed
  });

  it("/queue collect is answered by the queue; messages sent while a run is busy then run as one turn", async () => {
    h = await startChannelHarness();
    await h.platform.userSays({ sender: "u1", text: "/queue collect debounce:0" });
    const answer = await h.until("u1", (v) => v.messages.length === 1, "the /queue answer");
    expect(answer.texts[0]).toMatch(/collect/);
    expect(h.model.requests).toHaveLength(0);

    h.model.enqueue([{ delayMs: 300 }, { text: "First answer." }], [{ text: "Both later messages, answered together." }]);
    await h.platform.userSays({ sender: "u1", text: "first question" });
    await h.model.waitForRequests(1);
    await h.platform.userSays({ sender: "u1", text: "second thought" });
    await h.platform.userSays({ sender: "u1", text: "third thought" });
    await h.until("u1", (v) => v.texts.includes("Both later messages, answered together."), "the collected answer");
    await h.gateway.stop();
    expect(h.model.requests).toHaveLength(2);
    expect(userTexts(h, 1)).toContain("second thought");
    expect(userTexts(h, 1)).toContain("third thought");
    expect(h.platform.chatView("u1").texts).toEqual([answer.texts[0], "First answer.", "Both later messages, answered together."]);
    // The messages that waited got no typing of their own once their turn was over.
    expect(h.platform.calls.filter((c) => c.op === "typing").length).toBeLessThanOrEqual(2);
  });

  it("the message tool sends to another allowed chat through the channel; a target outside the rules is refused", async () => {
    h = await startChannelHarness({ channel: { ...OPEN_DMS, groupPolicy: "allowlist", groups: { team: {} } } });
    h.model.enqueue(
      [
        { toolCall: { name: "message", arguments: { target: "loopback:bob", text: "Alice says hi!" } } },
        { toolCall: { name: "message", arguments: { target: "loopback:secret-room", kind: "group", text: "psst" } } },
      ],
      [{ text: "Done: I told Bob." }],
    );
    await h.platform.userSays({ sender: "alice", text: "tell bob I said hi" });
    await h.until("alice", (v) => v.texts.includes("Done: I told Bob."), "the answer to alice");
    await h.gateway.stop();
    expect(h.platform.chatView("bob").texts).toEqual(["Alice says hi!"]);
    expect(h.platform.chatView("secret-room").messages).toEqual([]);
    const toolResults = JSON.stringify(h.model.requests[1]!.body.messages.filter((m: { role: string }) => m.role === "tool"));
    expect(toolResults).toContain("Sent to loopback:default:bob");
    expect(toolResults).toContain("refused");
  });

  it("chat.abort stops the run and its preview: nothing is sent afterwards", async () => {
    h = await startChannelHarness();
    h.model.enqueue([
      { text: "A reply that starts streaming right away and then", chunkChars: 100 },
      { delayMs: 5000 },
      { text: " never finishes." },
    ]);
    await h.platform.userSays({ sender: "u1", text: "start something long" });
    const preview = await h.until("u1", (v) => v.messages.length === 1, "the preview");
    const client = await GatewayClient.connect(h.gateway.url, { token: h.gateway.token! });
    try {
      // u1 is no owner (the harness lets anyone in), so the run is in u1's own session.
      const result = await client.request<{ aborted: number }>("chat.abort", { sessionKey: "agent:main:loopback:direct:u1" });
      expect(result.aborted).toBe(1);
    } finally {
      await client.close();
    }
    const abortedAt = Date.now();
    await h.gateway.queue.idle();
    await h.model.idle();
    expect(h.model.requests[0]!.outcome).toBe("client_closed");
    await h.gateway.stop(); // drains every delivery still in flight
    expect(h.platform.calls.filter((c) => c.at > abortedAt)).toEqual([]);
    const view = h.platform.chatView("u1");
    expect(view.texts).toEqual(preview.texts);
    expect(view.texts[0]).not.toContain("never finishes");
  });
});
