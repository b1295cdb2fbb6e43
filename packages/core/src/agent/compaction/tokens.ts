// Token counts without a tokenizer: characters / 4 (about right for English text and JSON with
// OpenAI's and Anthropic's tokenizers), corrected per model by what the provider reports.
import type { ChatMessage, ToolSchema } from "../../providers/index.js";

/** Characters per token of the raw estimate. */
export const CHARS_PER_TOKEN = 4;
/** Tokens a message costs beyond its text (role, separators). */
const MESSAGE_OVERHEAD = 4;

/** Tokens of `chars` characters by the raw estimate (characters / 4, rounded up). */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Tokens of a text by the raw estimate (characters / 4, rounded up). */
export function estimateTextTokens(text: string): number {
  return tokensOfChars(text.length);
}

/** Tokens of one message: its text, its tool calls' names and arguments, plus a small overhead. */
export function estimateMessageTokens(message: ChatMessage): number {
  let chars = message.content.length;
  if (message.role === "assistant") {
    for (const call of message.toolCalls ?? []) chars += call.name.length + JSON.stringify(call.arguments ?? {}).length;
  } else if (message.role === "tool") {
    chars += message.name.length;
  }
  return tokensOfChars(chars) + MESSAGE_OVERHEAD;
}

/** What one model call sends. */
export interface PromptParts {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSchema[];
}

/** JSON length of tool parameter schemas (shared, read-only objects: see `toParameters`). */
const parametersChars = new WeakMap<object, number>();

function jsonChars(parameters: Record<string, unknown>): number {
  let n = parametersChars.get(parameters);
  if (n === undefined) {
    n = JSON.stringify(parameters).length;
    parametersChars.set(parameters, n);
  }
  return n;
}

/** Raw token estimate of a whole request: system prompt, tool definitions and messages. */
export function estimatePromptTokens(prompt: PromptParts): number {
  let total = estimateTextTokens(prompt.system);
  for (const tool of prompt.tools) total += tokensOfChars(tool.name.length + tool.description.length + jsonChars(tool.parameters));
  for (const message of prompt.messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * Per-model correction of the raw estimate: the ratio of the input tokens a provider reported to
 * the raw estimate of the same request, smoothed over calls (starts at 1, kept within 0.5–4).
 */
export class TokenCalibration {
  private readonly ratios = new Map<string, number>();

  /** Learns from one call: `estimated` raw tokens were reported as `reported` input tokens. */
  observe(modelRef: string, estimated: number, reported: number): void {
    if (!(estimated > 0) || !(reported > 0)) return;
    const sample = Math.min(4, Math.max(0.5, reported / estimated));
    const previous = this.ratios.get(modelRef);
    this.ratios.set(modelRef, previous === undefined ? sample : previous * 0.7 + sample * 0.3);
  }

  /** The current ratio for a model (1 before any call was observed). */
  ratio(modelRef: string | undefined): number {
    return (modelRef && this.ratios.get(modelRef)) || 1;
  }

  /** A raw estimate corrected for the model, rounded up. */
  calibrate(modelRef: string | undefined, raw: number): number {
    return Math.ceil(raw * this.ratio(modelRef));
  }
}
