// A provider's "context too long" answer compacts the session and retries the call once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lastUserText, startFakeAnthropic, startFakeOpenAI, type FakeModelServer, type RecordedRequest } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentRuntime, AgentEvent } from "../../src/agent/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";
import { fakeModelRuntime } from "../helpers/fake-model-runtime.js";

let stateDir: string;
let fake: FakeModelServer;
let runtime: AgentRuntime | undefined;

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const platforms = [
  { name: "OpenAI (context_length_exceeded)", api: "openai-completions", start: startFakeOpenAI },
  { name: "Anthropic (prompt is too long)", api: "anthropic-messages", start: startFakeAnthropic },
] as const;

/** Everything the request holds as text (system prompt and messages). */
const requestText = (r: RecordedRequest) => JSON.stringify([r.body.system ?? "", r.body.messages]);
const isSummaryCall = (r: RecordedRequest) => requestText(r).includes("You maintain the running summary");

describe.each(platforms)("context overflow from $name", ({ api, start }) => {
  beforeEach(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-overflow-"));
    fake = await start({
      // Summaries keep the user's lines; other calls echo.
      responder: (r) =>
        isSummaryCall(r)
          ? [{ text: `- ${[...lastUserText(r).matchAll(/^User: (.*)$/gm)].map((m) => m[1]).join("; ")}` }]
          : [{ text: `echo: ${lastUserText(r)}` }],
    });
    runtime = fakeModelRuntime({ stateDir, baseUrl: fake.baseUrl, api });
  });

  it("compacts and retries once instead of failing the reply", async () => {
    const rt = runtime!;
    await rt.runTurn({ message: "my name is Ada" });
    await rt.runTurn({ message: "I live in Lisbon" });
    const before = fake.requests.length;
    fake.enqueue([{ error: { status: 400, contextOverflow: true } }]);
    const events: AgentEvent[] = [];
    const result = await rt.runTurn({ message: "where do I live?", onEvent: (e) => events.push(e) });

    expect(result.status).toBe("ok");
    // (Anthropic's adapter merges the summary and the question into one user message.)
    expect(result.text).toMatch(/^echo: .*where do I live\?$/s);
    const calls = fake.requests.slice(before);
    // The refused call, the summary, the retry.
    expect(calls.map((r) => (isSummaryCall(r) ? "summary" : r.outcome))).toEqual(["error", "summary", "completed"]);
    const retry = requestText(calls[2]!);
    expect(retry).toContain("my name is Ada");
    expect(retry).toContain("The earlier part of this conversation was compacted");
    expect(events).toContainEqual(expect.objectContaining({ type: "compaction", reason: "overflow" }));

    const reader = openAgentStoreReadOnly({ stateDir, agentId: "main" })!;
    const entry = reader.getEntry(result.sessionKey)!;
    const compactions = reader.readEvents(entry.sessionId).filter((e) => e.event.type === "compaction");
    reader.close();
    expect(compactions).toHaveLength(1);
    expect(compactions[0]!.event).toMatchObject({ details: { reason: "overflow" } });
  });

  it("retries only once: a second overflow fails the turn with a notice", async () => {
    const rt = runtime!;
    await rt.runTurn({ message: "first" });
    await rt.runTurn({ message: "second" });
    const overflow = { error: { status: 400, contextOverflow: true } };
    fake.enqueue([overflow], [{ text: "- first; second" }], [overflow]);
    const result = await rt.runTurn({ message: "third" });
    expect(result.status).toBe("error");
    expect(result.error?.kind).toBe("context_overflow");
    expect(result.text).toMatch(/^Sorry/);
    expect(fake.pendingTurns).toBe(0);
  });
});
