import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localDateStamp } from "../../src/memory/index.js";
import { fakeProviders, startFakeRuntime, type FakeRuntimeBox } from "./fake-runtime.js";

let box: FakeRuntimeBox;
beforeEach(async () => {
  box = await startFakeRuntime();
});
afterEach(() => box.close());

const offeredTools = (request: { body: { tools?: { function: { name: string } }[] } }) =>
  (request.body.tools ?? []).map((t) => t.function.name);
const systemPrompt = (request: { body: { messages: { role: string; content: string }[] } }) => request.body.messages[0]!.content;

describe("which sessions get what", () => {
  it("offers sessions_spawn to the main session but not to a sub-agent, which may not use it", async () => {
    const runtime = box.runtime();
    await runtime.runTurn({ message: "hi" });
    expect(offeredTools(box.fake.requests[0]!)).toContain("sessions_spawn");
    await runtime.runTurn({ message: "a task", sessionKey: "agent:main:subagent:abc", promptMode: "minimal" });
    const tools = offeredTools(box.fake.requests[1]!);
    expect(tools).toContain("sessions_send");
    expect(tools).not.toContain("sessions_spawn");
  });

  it("gives today's and yesterday's daily notes to the main and direct sessions only, as docs/agent.md says", async () => {
    const now = new Date(2026, 4, 20, 10, 0);
    mkdirSync(path.join(box.ws, "memory"), { recursive: true });
    writeFileSync(path.join(box.ws, "memory", `${localDateStamp(new Date(2026, 4, 19, 12))}.md`), "Yesterday: booked the dentist.");
    writeFileSync(path.join(box.ws, "memory", `${localDateStamp(now)}.md`), "Today: call the plumber.");
    const runtime = box.runtime({}, { now: () => now });
    const sessions = {
      "agent:main:main": true,
      "agent:main:telegram:direct:42": true,
      "agent:main:telegram:group:-100": false,
    };
    for (const [sessionKey, expected] of Object.entries(sessions)) {
      await runtime.runTurn({ message: "what is on?", sessionKey });
      const prompt = systemPrompt(box.fake.lastRequest()!);
      expect({ sessionKey, today: prompt.includes("call the plumber"), yesterday: prompt.includes("booked the dentist") }).toEqual({
        sessionKey,
        today: expected,
        yesterday: expected,
      });
    }
  });

  it("answers with the first configured model when the default model is stale", async () => {
    const runtime = box.runtime({
      agents: { defaults: { model: "gpt-retired", workspace: box.ws } },
      models: fakeProviders(box.fake),
    });
    const result = await runtime.runTurn({ message: "still there?" });
    expect(result).toMatchObject({ status: "ok", text: "still there?", modelRef: "local/fake-model" });
    expect(box.fake.requests[0]!.body.model).toBe("fake-model");
  });
});
