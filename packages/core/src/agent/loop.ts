import {
  ProviderError,
  streamWithFallback,
  type ChatMessage,
  type ModelCandidate,
  type ModelProvider,
  type ToolCall,
} from "../providers/index.js";
import type { AgentTool, ToolContext, ToolResult } from "../tool-contract/index.js";
import type { AgentEvent, Usage } from "./events.js";

/** What the loop records; the caller appends it to the transcript before the loop acts on it. */
export type LoopRecord =
  | { kind: "assistant"; text: string; toolCalls: ToolCall[]; provider: string; model: string; stopReason: string; usage?: Usage }
  | { kind: "tool_result"; call: ToolCall; content: string; isError: boolean }
  /** Steering that joined the run; `inboundKeys` name the channel messages it came from. */
  | { kind: "user"; text: string; inboundKeys?: readonly string[] };

/** A message that arrived mid-run: its text, or its text with the inbox keys of its channel messages. */
export type SteeringText = string | { text: string; inboundKeys?: readonly string[] };

export interface LoopOptions {
  candidates: readonly ModelCandidate[];
  createProvider(candidate: ModelCandidate): ModelProvider;
  system: string;
  /** The conversation so far, ending with the new user message. */
  messages: ChatMessage[];
  tools: readonly AgentTool[];
  toolContext: Omit<ToolContext, "signal" | "modelRef">;
  signal: AbortSignal;
  /** Most model calls in one run (default 64); protects against a model that never stops calling tools. */
  maxModelCalls?: number;
  /** Messages that arrived mid-run; polled after every tool batch, before the next model call. */
  drainSteering?(): readonly SteeringText[];
  /**
   * Appends to the transcript. Durable when it returns, or, when it returns a promise, once that
   * resolves: the loop waits for it before acting on the entry (running the tools of an
   * assistant message, the next model call after tool results and steering).
   */
  record(entry: LoopRecord): void | Promise<void>;
  emit(event: AgentEvent): void;
}

export interface LoopResult {
  /** Text of the last assistant message: the reply. */
  finalText: string;
  usage: Usage;
  stopReason: string;
  modelRef?: string;
}

const describeArgs = (call: ToolCall) => call.arguments;

/**
 * The agent loop: call the model, run the tool calls it asks for (in parallel), feed the
 * results back, and repeat until the model answers without tools. Every assistant message is
 * recorded before its tools run, every tool result (in the order of the calls) before the next model call, and steering
 * messages join after the whole tool batch (no call is skipped).
 */
export async function runAgentLoop(options: LoopOptions): Promise<LoopResult> {
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const messages = options.messages;
  const toolsByName = new Map(options.tools.map((t) => [t.name, t]));
  const schemas = options.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const maxCalls = options.maxModelCalls ?? 64;
  let finalText = "";
  let stopReason = "stop";
  let modelRef: string | undefined;

  for (let call = 0; call < maxCalls; call += 1) {
    if (options.signal.aborted) throw abortError(options.signal);
    let text = "";
    let blockOpen = false;
    const toolCalls: ToolCall[] = [];
    let callUsage: Usage | undefined;
    let provider = "";
    let model = "";
    stopReason = "stop";
    const stream = streamWithFallback(
      options.candidates,
      { system: options.system, messages, tools: schemas, signal: options.signal },
      { createProvider: options.createProvider },
    );
    for await (const event of stream) {
      switch (event.type) {
        case "model_selected":
          provider = event.candidate.provider;
          model = event.candidate.model;
          modelRef = event.candidate.ref;
          options.emit({ type: "model", ref: event.candidate.ref, attempt: event.attempt, skipped: event.errors.map((e) => e.message) });
          break;
        case "text_delta":
          text += event.text;
          blockOpen = true;
          options.emit({ type: "text_delta", text: event.text });
          break;
        case "text_end":
          if (blockOpen) options.emit({ type: "text_end" });
          blockOpen = false;
          break;
        case "tool_call":
          if (blockOpen) options.emit({ type: "text_end" });
          blockOpen = false;
          toolCalls.push(event.call);
          break;
        case "usage":
          callUsage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
          usage.inputTokens += event.inputTokens;
          usage.outputTokens += event.outputTokens;
          break;
        case "done":
          stopReason = event.stopReason;
          break;
      }
    }
    if (blockOpen) options.emit({ type: "text_end" });
    await options.record({ kind: "assistant", text, toolCalls, provider, model, stopReason, ...(callUsage ? { usage: callUsage } : {}) });
    messages.push({ role: "assistant", content: text, ...(toolCalls.length ? { toolCalls } : {}) });
    options.emit({ type: "message_end", text, stopReason });
    finalText = text;
    if (toolCalls.length === 0) return { finalText, usage, stopReason, ...(modelRef ? { modelRef } : {}) };

    const ctx: ToolContext = { ...options.toolContext, signal: options.signal, ...(modelRef ? { modelRef } : {}) };
    // The calls run at the same time, but their results are recorded in the order of the calls:
    // each as soon as it and every call before it have finished.
    const recorded: Promise<void>[] = [];
    const recordInOrder = inCallOrder<LoopRecord>(toolCalls.length, (entry) => {
      const done = options.record(entry);
      if (done) recorded.push(done);
    });
    await Promise.all(
      toolCalls.map(async (tc, index) => {
        const started = Date.now();
        options.emit({ type: "tool_start", callId: tc.id, name: tc.name, args: describeArgs(tc) });
        const tool = toolsByName.get(tc.name);
        const result: ToolResult = tool
          ? await tool
              .execute(tc.arguments, ctx)
              .catch((err: unknown) => ({ content: `The tool failed: ${(err as Error).message}`, isError: true }))
          : { content: `There is no tool named "${tc.name}". Available: ${[...toolsByName.keys()].join(", ") || "none"}.`, isError: true };
        const isError = result.isError === true;
        recordInOrder(index, { kind: "tool_result", call: tc, content: result.content, isError });
        options.emit({ type: "tool_end", callId: tc.id, name: tc.name, result: result.content, isError, durationMs: Date.now() - started });
        return { tc, content: result.content, isError, images: result.images };
      }),
    ).then((results) => {
      // Results go back to the model in the order the model asked for them.
      for (const r of results)
        messages.push({
          role: "tool",
          toolCallId: r.tc.id,
          name: r.tc.name,
          content: r.content,
          isError: r.isError,
          ...(r.images?.length ? { images: r.images } : {}),
        });
    });

    for (const item of options.drainSteering?.() ?? []) {
      const steer = typeof item === "string" ? { text: item } : item;
      const done = options.record({
        kind: "user",
        text: steer.text,
        ...(steer.inboundKeys?.length ? { inboundKeys: steer.inboundKeys } : {}),
      });
      if (done) recorded.push(done);
      messages.push({ role: "user", content: steer.text });
      options.emit({ type: "steer", text: steer.text });
    }
    await Promise.all(recorded);
  }
  throw new ProviderError({
    kind: "unknown",
    message: `The run stopped after ${maxCalls} model calls without a final answer (the model kept calling tools).`,
    provider: "",
    model: modelRef ?? "",
  });
}

/** Passes items given out of order (by index 0..count-1) to `sink` in index order, each as soon as its predecessors are in. */
function inCallOrder<T>(count: number, sink: (item: T) => void): (index: number, item: T) => void {
  const waiting = new Array<T | undefined>(count);
  let next = 0;
  return (index, item) => {
    waiting[index] = item;
    while (next < count && waiting[next] !== undefined) {
      sink(waiting[next] as T);
      waiting[next] = undefined;
      next += 1;
    }
  };
}

function abortError(signal: AbortSignal): ProviderError {
  const reason = signal.reason as { name?: string } | undefined;
  return new ProviderError({
    kind: reason?.name === "TimeoutError" ? "timeout" : "abort",
    message: reason?.name === "TimeoutError" ? "The run hit its time limit." : "The run was aborted.",
    provider: "",
    model: "",
  });
}
