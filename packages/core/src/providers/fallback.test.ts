import { startFakeAnthropic, startFakeOpenAI, type FakeModelServer, type FakeTurn } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { collect, textOf } from "./__fixtures__/collect.js";
import {
  createProviderFactory,
  isFallbackWorthy,
  ProviderError,
  resolveModelSelection,
  streamWithFallback,
  type FallbackInfo,
  type FallbackStreamEvent,
  type ModelCandidate,
  type ModelRequest,
  type ModelsConfigView,
} from "./index.js";

const fakes: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

/** Primary on a fake OpenAI-compatible server, fallback on a fake Anthropic server. */
async function setup(primaryScript: FakeTurn[], options: { expectedKey?: string; backupScript?: FakeTurn[] } = {}) {
  const primary = await startFakeOpenAI({ script: primaryScript, ...(options.expectedKey ? { expectedApiKey: options.expectedKey } : {}) });
  const backup = await startFakeAnthropic({ script: options.backupScript ?? [[{ text: "backup answer" }]] });
  fakes.push(primary, backup);
  const config: ModelsConfigView = {
    models: {
      providers: {
        fast: { baseUrl: primary.baseUrl, apiKey: "sk-fast", models: [{ id: "fast-1" }] },
        anthropic: { baseUrl: backup.baseUrl, apiKey: "sk-ant" },
      },
    },
    agents: { defaults: { model: { primary: "fast/fast-1", fallbacks: ["anthropic/claude-haiku-4-5"] } } },
  };
  const candidates = resolveModelSelection(config, "main");
  const fallbacks: FallbackInfo[] = [];
  const createProvider = createProviderFactory(config, { env: {} });
  const run = (signal: AbortSignal = new AbortController().signal) =>
    collect(
      streamWithFallback(
        candidates,
        { system: "", messages: [{ role: "user", content: "hi" }], tools: [], signal },
        {
          createProvider,
          onFallback: (info) => fallbacks.push(info),
        },
      ),
    );
  return { primary, backup, candidates, fallbacks, run };
}

function selected(events: FallbackStreamEvent[]) {
  return events.filter((e) => e.type === "model_selected");
}

describe("streamWithFallback", () => {
  it("answers from the primary and says so", async () => {
    const { run, backup, fallbacks } = await setup([[{ text: "primary answer" }]]);
    const { events, error } = await run();
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("primary answer");
    expect(selected(events)).toEqual([
      { type: "model_selected", candidate: expect.objectContaining({ ref: "fast/fast-1" }), attempt: 0, errors: [] },
    ]);
    expect(events[0]?.type).toBe("model_selected");
    expect(backup.requests).toHaveLength(0);
    expect(fallbacks).toEqual([]);
  });

  it.each([
    ["429", [[{ error: { status: 429, retryAfterSec: 5 } }]] as FakeTurn[], "rate_limit"],
    ["529", [[{ error: { status: 529 } }]] as FakeTurn[], "overloaded"],
    ["a timeout", [[{ error: { status: 504 } }]] as FakeTurn[], "timeout"],
  ])("advances to the fallback on %s", async (_label, script, kind) => {
    const { run, fallbacks, backup } = await setup(script);
    const { events, error } = await run();
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("backup answer");
    const [chosen] = selected(events);
    expect(chosen).toMatchObject({ attempt: 1, candidate: { ref: "anthropic/claude-haiku-4-5" } });
    expect(chosen?.type === "model_selected" && chosen.errors.map((e) => e.kind)).toEqual([kind]);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({
      from: { ref: "fast/fast-1" },
      to: { ref: "anthropic/claude-haiku-4-5" },
      attempt: 1,
      error: { kind },
    });
    expect(backup.requests).toHaveLength(1);
  });

  it("advances on a rejected key (401)", async () => {
    const { run } = await setup([], { expectedKey: "sk-other" });
    const { events, error } = await run();
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("backup answer");
    expect(selected(events)[0]).toMatchObject({ attempt: 1, errors: [{ kind: "auth", status: 401 }] });
  });

  it("does not advance on context overflow", async () => {
    const { run, backup } = await setup([[{ error: { status: 400, contextOverflow: true } }]]);
    const { events, error } = await run();
    expect(error).toMatchObject({ kind: "context_overflow", provider: "fast" });
    expect(events).toEqual([]);
    expect(backup.requests).toHaveLength(0);
  });

  it("does not advance on abort", async () => {
    const { run, primary, backup } = await setup([[{ delayMs: 20_000 }, { text: "late" }]]);
    const controller = new AbortController();
    const pending = run(controller.signal);
    await primary.waitForRequests(1);
    controller.abort();
    const { error } = await pending;
    expect(error).toMatchObject({ kind: "abort" });
    expect(backup.requests).toHaveLength(0);
  });

  it("never falls back once text was streamed", async () => {
    const { run, backup } = await setup([[{ text: "half an ans" }, { error: { status: 529 } }]]);
    const { events, error } = await run();
    expect(textOf(events)).toBe("half an ans");
    expect(error).toMatchObject({ kind: "overloaded" });
    expect(backup.requests).toHaveLength(0);
  });

  it("throws a summary of every attempt when all candidates fail", async () => {
    const { run } = await setup([[{ error: { status: 429 } }]], { backupScript: [[{ error: { status: 529 } }]] });
    const { error } = await run();
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "overloaded", provider: "anthropic" });
    expect((error as Error).message).toMatch(/All 2 models failed/);
    expect((error as Error).message).toContain("fast/fast-1");
  });

  it("skips a candidate whose provider is unknown", async () => {
    const backup = await startFakeAnthropic();
    fakes.push(backup);
    const config: ModelsConfigView = { models: { providers: { anthropic: { baseUrl: backup.baseUrl, apiKey: "k" } } } };
    const candidates: ModelCandidate[] = [
      { provider: "typo", model: "x", ref: "typo/x" },
      { provider: "anthropic", model: "claude-haiku-4-5", ref: "anthropic/claude-haiku-4-5" },
    ];
    const request: Omit<ModelRequest, "model"> = {
      system: "",
      messages: [{ role: "user", content: "ping" }],
      tools: [],
      signal: new AbortController().signal,
    };
    const { events, error } = await collect(
      streamWithFallback(candidates, request, { createProvider: createProviderFactory(config, { env: {} }) }),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("ping");
    expect(selected(events)[0]).toMatchObject({
      attempt: 1,
      errors: [{ kind: "unknown", message: expect.stringContaining('Unknown model provider "typo"') }],
    });
  });
});

describe("isFallbackWorthy", () => {
  const err = (kind: ProviderError["kind"]) => new ProviderError({ kind, message: kind, provider: "p", model: "m" });
  it("is true for auth, rate_limit, overloaded, timeout and unknown", () => {
    for (const kind of ["auth", "rate_limit", "overloaded", "timeout", "unknown"] as const) expect(isFallbackWorthy(err(kind))).toBe(true);
    expect(isFallbackWorthy(new Error("weird"))).toBe(true);
  });
  it("is false for abort, context_overflow and bad_request", () => {
    for (const kind of ["abort", "context_overflow", "bad_request"] as const) expect(isFallbackWorthy(err(kind))).toBe(false);
  });
});
