// The provider contract shared with the agent loop (agent-contracts.md). Keep it small and stable.

/** An image carried with a tool result (e.g. a browser screenshot). */
export interface ImagePart {
  /** IANA type, e.g. "image/png". */
  mimeType: string;
  /** The image bytes, base64-encoded (no `data:` prefix). */
  data: string;
}

/** One message of the conversation, in a provider-neutral shape. */
export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | {
      role: "tool";
      toolCallId: string;
      name: string;
      content: string;
      isError?: boolean;
      /**
       * Images the tool returned. Sent only to models whose config lists `"image"` in
       * `models.providers.<id>.models[].input`; other models see `content` alone.
       */
      images?: ImagePart[];
    };

/** A complete tool call from the model. */
export interface ToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments; the raw text when the model sent invalid JSON; `{}` when it sent none. */
  arguments: unknown;
}

/** A tool offered to the model. */
export interface ToolSchema {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** One model call. */
export interface ModelRequest {
  /** Provider-local model id (the part after the first "/" of a model ref). */
  model: string;
  /** System prompt; empty string sends none. */
  system: string;
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** Aborting it ends the stream promptly with a ProviderError of kind "abort". */
  signal: AbortSignal;
  /** Most output tokens. Default: the model's `maxTokens` from config, else the provider's default (Anthropic 8192; OpenAI-compatible: unset). */
  maxTokens?: number;
  /** Extra request-body parameters (e.g. temperature), from `agents.defaults.models[ref].params`. */
  params?: Record<string, unknown>;
}

/** What a provider stream yields, in order: text and tool calls, then usage (when known), then done. */
export type ModelStreamEvent =
  | { type: "text_delta"; text: string }
  /** A text block finished (before a tool call or at the end). */
  | { type: "text_end" }
  /** A complete call (arguments parsed). */
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; inputTokens: number; outputTokens: number }
  | { type: "done"; stopReason: "stop" | "tool_use" | "length" };

/** The wire protocols we speak. */
export type ProviderApi = "openai-completions" | "anthropic-messages";

/** A configured model provider. */
export interface ModelProvider {
  /** Config id, e.g. "openai", "ollama". */
  id: string;
  api: ProviderApi;
  /** Streams one model call. Every failure is thrown as a {@link ProviderError}. */
  stream(req: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/** Why a model call failed; decides retry and fallback policy. */
export type ProviderErrorKind = "auth" | "rate_limit" | "overloaded" | "timeout" | "context_overflow" | "abort" | "bad_request" | "unknown";

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  message: string;
  provider: string;
  model: string;
  status?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

/** A failed model call, classified. `message` says what went wrong and, where it can, how to fix it. */
export class ProviderError extends Error {
  kind: ProviderErrorKind;
  /** HTTP status, when the server answered. */
  status?: number;
  /** From the `retry-after-ms` / `retry-after` header of a 429 or overload answer. */
  retryAfterMs?: number;
  provider: string;
  model: string;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ProviderError";
    this.kind = init.kind;
    this.provider = init.provider;
    this.model = init.model;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}
