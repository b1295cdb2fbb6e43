// The model call that folds older messages into the running summary.
import { streamWithFallback, type ChatMessage, type ModelCandidate, type ModelProvider } from "../../providers/index.js";
import { estimateTextTokens } from "./tokens.js";

/** The summarizer's instructions (its system prompt). */
export const SUMMARY_INSTRUCTIONS = [
  "You maintain the running summary of a conversation between a user and an AI assistant.",
  "The assistant continues the conversation from your summary and the most recent messages; it no longer sees the older messages.",
  "Keep every fact the user stated (names, numbers, dates, preferences, decisions, anything they asked to be remembered),",
  "open tasks and their state, files and commands involved, and what the assistant promised. Leave out pleasantries.",
  "Write only the summary, as short bullet points.",
].join(" ");

/** Longest tool result, in characters, shown to the summarizer (head and tail are kept). */
const TOOL_RESULT_CHARS = 2000;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 40) / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters left out …]\n${text.slice(-half)}`;
}

/** One message as a line of the transcript the summarizer reads. */
export function renderMessage(message: ChatMessage): string {
  switch (message.role) {
    case "user":
      return `User: ${message.content}`;
    case "assistant": {
      const calls = (message.toolCalls ?? []).map((c) => `Assistant called ${c.name}(${clip(JSON.stringify(c.arguments ?? {}), 500)})`);
      return [message.content ? `Assistant: ${message.content}` : "", ...calls].filter(Boolean).join("\n");
    }
    case "tool":
      return `Tool ${message.name} ${message.isError ? "failed" : "returned"}: ${clip(message.content, TOOL_RESULT_CHARS)}`;
  }
}

export interface SummarizeOptions {
  candidates: readonly ModelCandidate[];
  createProvider(candidate: ModelCandidate): ModelProvider;
  /** The summary of an earlier compaction, folded into the new one. */
  previousSummary?: string;
  /** The messages to fold in. */
  messages: readonly ChatMessage[];
  /** Longest summary (the model's maxTokens). */
  maxTokens: number;
  /** Most tokens of conversation per summarizer call; longer histories are folded in several calls. */
  chunkTokens: number;
  signal: AbortSignal;
}

/**
 * Folds `messages` into a summary with the session's model: the messages are rendered as a plain
 * transcript and sent in chunks of at most `chunkTokens`, each call updating the summary so far.
 * Throws the provider's error when a call fails, and an Error when the model answers with nothing.
 */
export async function summarize(options: SummarizeOptions): Promise<{ summary: string; modelRef?: string }> {
  const chunkChars = Math.max(2000, options.chunkTokens * 4);
  const chunks: string[] = [];
  let current = "";
  for (const message of options.messages) {
    const line = clip(renderMessage(message), chunkChars);
    if (current && current.length + line.length + 1 > chunkChars) {
      chunks.push(current);
      current = "";
    }
    current += `${current ? "\n" : ""}${line}`;
  }
  if (current) chunks.push(current);
  let summary = options.previousSummary;
  let modelRef: string | undefined;
  for (const chunk of chunks) {
    const request = [
      summary ? `Summary so far:\n<summary>\n${summary}\n</summary>\n` : "",
      `Conversation to fold into the summary:\n<conversation>\n${chunk}\n</conversation>\n`,
      `Write the updated summary (at most about ${Math.floor(options.maxTokens * 0.6)} words).`,
    ].join("\n");
    let text = "";
    const stream = streamWithFallback(
      options.candidates,
      {
        system: SUMMARY_INSTRUCTIONS,
        messages: [{ role: "user", content: request }],
        tools: [],
        signal: options.signal,
        maxTokens: options.maxTokens,
      },
      { createProvider: options.createProvider },
    );
    for await (const event of stream) {
      if (event.type === "text_delta") text += event.text;
      else if (event.type === "model_selected") modelRef = event.candidate.ref;
    }
    if (!text.trim()) throw new Error("The model returned an empty summary; the session was not compacted.");
    summary = text.trim();
  }
  return { summary: summary ?? "", ...(modelRef ? { modelRef } : {}) };
}

/** Raw tokens of the summarizer's fixed text (instructions and framing), for chunk budgets. */
export const SUMMARY_OVERHEAD_TOKENS = estimateTextTokens(SUMMARY_INSTRUCTIONS) + 100;
