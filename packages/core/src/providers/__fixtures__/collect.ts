// Test helpers for provider streams (excluded from the build).
import type { ModelRequest } from "../types.js";

/** Drains a stream; returns its events, or the error it threw alongside the events before it. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<{ events: T[]; error?: unknown }> {
  const events: T[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/** Concatenated text of text_delta events. */
export function textOf(events: ReadonlyArray<{ type: string; text?: string }>): string {
  return events.map((e) => (e.type === "text_delta" ? (e.text ?? "") : "")).join("");
}

/** A minimal request: one user message, no tools. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "test-model",
    system: "You are terse.",
    messages: [{ role: "user", content: "hello" }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}
