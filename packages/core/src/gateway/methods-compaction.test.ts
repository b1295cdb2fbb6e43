import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./__fixtures__/harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe("sessions.compact", () => {
  it("flushes memory and compacts a session; the summary entry shows in sessions.history", async () => {
    h = await startHarness();
    const client = await h.connect();
    expect(await client.request<any>("sessions.compact", { sessionKey: "agent:main:errands" }).catch((e) => e.code)).toBe("not_found");
    for (const message of ["remember the milk", "and the eggs", "what else?"]) {
      await client.request("chat.send", { message, sessionKey: "agent:main:errands" });
    }
    const before = h.fake.requests.length;
    const answer = await client.request<any>("sessions.compact", { sessionKey: "agent:main:errands" });
    expect(answer).toMatchObject({ agentId: "main", sessionKey: "agent:main:errands", status: "compacted", reason: "manual" });
    expect(answer.summarizedMessages).toBeGreaterThanOrEqual(6);
    // The flush turn, then the summary call.
    const calls = h.fake.requests.slice(before).map((r) => JSON.stringify(r.body.messages));
    expect(calls).toEqual([expect.stringContaining("[Memory flush"), expect.stringContaining("You maintain the running summary")]);

    const history = await client.request<any>("sessions.history", { sessionKey: "agent:main:errands", limit: 1 });
    expect(history.events[0].event).toMatchObject({ type: "compaction", details: { reason: "manual" } });
    expect(history.events[0].event.summary).toContain("remember the milk");
  });
});
