import { afterEach, beforeEach, expect, it } from "vitest";
import type { AgentTool } from "../../src/tool-contract/index.js";
import { startFakeRuntime, type FakeRuntimeBox } from "./fake-runtime.js";

let box: FakeRuntimeBox;
beforeEach(async () => {
  box = await startFakeRuntime();
});
afterEach(() => box.close());

/** Two tools where `slow` finishes only after `fast` has: the batch completes out of call order. */
function racingTools(): AgentTool[] {
  let fastDone!: () => void;
  const fastFinished = new Promise<void>((resolve) => {
    fastDone = resolve;
  });
  const tool = (name: string, run: () => Promise<string>): AgentTool => ({
    name,
    description: name,
    parameters: { type: "object", properties: {} },
    groups: [],
    execute: async () => ({ content: await run() }),
  });
  return [
    tool("slow", async () => {
      await fastFinished;
      return "slow result";
    }),
    tool("fast", async () => {
      fastDone();
      return "fast result";
    }),
  ];
}

it("stores tool results in the order of their calls, even when a later call finishes first", async () => {
  const tools = racingTools();
  const runtime = box.runtime({}, { extraTools: () => tools });
  box.fake.enqueue(
    [{ toolCall: { name: "slow", arguments: {}, id: "call_1" } }, { toolCall: { name: "fast", arguments: {}, id: "call_2" } }],
    [{ text: "both done" }],
  );
  const turn = await runtime.runTurn({ message: "run both" });
  expect(turn.text).toBe("both done");

  const stored = box
    .storedEvents(turn.sessionId)
    .filter((e) => e.message?.role === "toolResult")
    .map((e) => e.message?.toolCallId);
  expect(stored).toEqual(["call_1", "call_2"]);
  // The model was given them in that order too.
  const sent = box.fake.requests[1]!.body.messages.filter((m: { role: string }) => m.role === "tool").map(
    (m: { tool_call_id: string }) => m.tool_call_id,
  );
  expect(sent).toEqual(["call_1", "call_2"]);
});
