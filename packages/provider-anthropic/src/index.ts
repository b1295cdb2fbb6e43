// The Anthropic Messages API client OpenClaw's core loads (only) when a provider with
// `api: "anthropic-messages"` makes its first call. Core keeps the mapping of conversations,
// tool calls and errors; this package carries the official SDK, so users of other providers
// do not install it. The shapes below mirror core's `AnthropicMessagesClient` contract.
import Anthropic from "@anthropic-ai/sdk";

/** How to reach the Messages API. */
export interface AnthropicClientOptions {
  /** Sent as `x-api-key`. */
  apiKey: string;
  /** E.g. "https://api.anthropic.com" (no `/v1`). */
  baseUrl: string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Time allowed for a request, in milliseconds. */
  timeoutMs: number;
}

/** Streams one Messages call. */
export interface AnthropicMessagesClient {
  /**
   * Sends `body` to `POST /v1/messages` with `stream: true` and returns its raw stream events
   * (`message_start`, `content_block_*`, `message_delta`, `message_stop`). Failures are the SDK's
   * errors (with `status`, `headers` and the server's `error` body); no retries; aborting
   * `signal` ends the stream.
   */
  streamMessages(body: Record<string, unknown>, signal: AbortSignal): Promise<AsyncIterable<{ type: string }>>;
}

/** A client for the Messages API on `@anthropic-ai/sdk`, with the SDK's own retries off. */
export function createAnthropicMessagesClient(options: AnthropicClientOptions): AnthropicMessagesClient {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    defaultHeaders: options.headers ?? {},
    timeout: options.timeoutMs,
    maxRetries: 0,
  });
  return {
    async streamMessages(body, signal) {
      const params = { ...body, stream: true } as unknown as Anthropic.Messages.MessageCreateParamsStreaming;
      return client.messages.create(params, { signal });
    },
  };
}
