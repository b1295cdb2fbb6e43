// Chat Completions over plain `fetch` and server-sent events: no client library to install or load.
import { CallGuard, parseToolArguments } from "./call-guard.js";
import { missingApiKeyError } from "./errors.js";
import { ApiError, postForStream, readServerSentEvents } from "./http-stream.js";
import { acceptsImages, dataUrl, toolImages } from "./images.js";
import { PLACEHOLDER_API_KEY, type ProviderBuildOptions, type ResolvedProviderConfig } from "./registry.js";
import {
  ProviderError,
  type ChatMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ToolCall,
  type ToolSchema,
} from "./types.js";

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type MessageParam =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ContentPart[] }
  | { role: "tool"; tool_call_id: string; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    };
type ToolParam = { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown> } };

/** The parts of a streamed `chat.completion.chunk` this provider reads. */
interface CompletionChunk {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  error?: unknown;
}

/**
 * Maps the neutral history to Chat Completions messages. A `tool` message carries text only, so
 * with `vision` the images of a run of tool results follow it in one `user` message of
 * `image_url` data-URL parts, each introduced by a text part naming the call.
 */
function toOpenAIMessages(system: string, messages: ChatMessage[], vision: boolean): MessageParam[] {
  const out: MessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  let pendingImages: ContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length) out.push({ role: "user", content: pendingImages });
    pendingImages = [];
  };
  for (const m of messages) {
    if (m.role !== "tool") flushImages();
    if (m.role === "user") out.push({ role: "user", content: m.content });
    else if (m.role === "tool") {
      out.push({ role: "tool", tool_call_id: m.toolCallId, content: m.content });
      const images = toolImages(m, vision);
      if (images.length) {
        pendingImages.push({ type: "text", text: `Image from the ${m.name} call ${m.toolCallId}:` });
        for (const image of images) pendingImages.push({ type: "image_url", image_url: { url: dataUrl(image) } });
      }
    } else if (m.toolCalls?.length) {
      out.push({
        role: "assistant",
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: "function" as const,
          function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) },
        })),
      });
    } else out.push({ role: "assistant", content: m.content });
  }
  flushImages();
  return out;
}

function toOpenAITools(tools: ToolSchema[]): ToolParam[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

function stopReasonOf(finish: string, hadToolCalls: boolean): "stop" | "tool_use" | "length" {
  if (finish === "length") return "length";
  if (finish === "tool_calls" || finish === "function_call" || hadToolCalls) return "tool_use";
  return "stop";
}

/**
 * A provider for any OpenAI-compatible Chat Completions endpoint (OpenAI, OpenRouter, Ollama,
 * LM Studio, vLLM, llama.cpp…) over `fetch`: POST `<baseUrl>/chat/completions` with a bearer key and
 * the configured headers, streamed with `stream_options.include_usage`; tool calls are assembled
 * from their deltas; no retries here (fallback and retry policy live in core). `maxTokens` goes out
 * as `max_completion_tokens` to api.openai.com and as `max_tokens` elsewhere. On api.openai.com
 * only, `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` from the environment are sent as the organization
 * and project headers.
 */
export function createOpenAICompletionsProvider(cfg: ResolvedProviderConfig, options: ProviderBuildOptions = {}): ModelProvider {
  const isOpenAIHost = /(^|\.)api\.openai\.com$/i.test(safeHost(cfg.baseUrl));
  const url = `${cfg.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headersFor = (apiKey: string): Record<string, string> => ({
    authorization: `Bearer ${apiKey}`,
    ...(isOpenAIHost && process.env.OPENAI_ORG_ID ? { "openai-organization": process.env.OPENAI_ORG_ID } : {}),
    ...(isOpenAIHost && process.env.OPENAI_PROJECT_ID ? { "openai-project": process.env.OPENAI_PROJECT_ID } : {}),
    ...cfg.headers,
  });

  async function* stream(req: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const ctx = {
      provider: cfg.id,
      model: req.model,
      baseUrl: cfg.baseUrl,
      signal: req.signal,
      ...(cfg.apiKeyEnv ? { apiKeyEnv: cfg.apiKeyEnv } : {}),
    };
    if (!cfg.apiKey && cfg.requiresApiKey) {
      throw missingApiKeyError({ ...ctx, ...(options.configPath ? { configPath: options.configPath } : {}) });
    }
    const guard = new CallGuard(ctx, cfg.timeoutMs);
    try {
      guard.throwIfStopped();
      const maxTokens = req.maxTokens ?? cfg.models.find((m) => m.id === req.model)?.maxTokens;
      const body = {
        ...req.params,
        model: req.model,
        messages: toOpenAIMessages(req.system, req.messages, acceptsImages(cfg.models, req.model)),
        stream: true,
        stream_options: { include_usage: true },
        ...(req.tools.length ? { tools: toOpenAITools(req.tools) } : {}),
        ...(maxTokens !== undefined ? { [isOpenAIHost ? "max_completion_tokens" : "max_tokens"]: maxTokens } : {}),
      };
      const response = await postForStream(url, headersFor(cfg.apiKey ?? PLACEHOLDER_API_KEY), body, guard.signal);

      const calls = new Map<number, { id: string; name: string; args: string }>();
      let textOpen = false;
      let finish: string | undefined;
      let usage: { inputTokens: number; outputTokens: number } | undefined;
      for await (const sse of readServerSentEvents((response.body ?? []) as AsyncIterable<Uint8Array>)) {
        guard.touch();
        if (sse.data === "[DONE]") break;
        const chunk = JSON.parse(sse.data) as CompletionChunk;
        if (chunk.error) throw new ApiError(undefined, chunk, response.headers);
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta ?? {};
        if (typeof delta.content === "string" && delta.content !== "") {
          textOpen = true;
          yield { type: "text_delta", text: delta.content };
        }
        for (const piece of delta.tool_calls ?? []) {
          if (textOpen) {
            textOpen = false;
            yield { type: "text_end" };
          }
          const index = piece.index ?? calls.size;
          const acc = calls.get(index) ?? { id: "", name: "", args: "" };
          calls.set(index, acc);
          if (piece.id) acc.id = piece.id;
          if (piece.function?.name && !acc.name) acc.name = piece.function.name;
          if (piece.function?.arguments) acc.args += piece.function.arguments;
        }
        if (choice.finish_reason && finish === undefined) {
          finish = choice.finish_reason;
          if (textOpen) {
            textOpen = false;
            yield { type: "text_end" };
          }
          for (const [index, acc] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
            const call: ToolCall = {
              id: acc.id || `call_${index}_${Date.now().toString(36)}`,
              name: acc.name,
              arguments: parseToolArguments(acc.args),
            };
            yield { type: "tool_call", call };
          }
        }
      }
      guard.throwIfStopped();
      if (finish === undefined) {
        throw new ProviderError({
          kind: "unknown",
          message: `${cfg.id}/${req.model}: the stream from ${cfg.baseUrl} ended before the model finished`,
          provider: cfg.id,
          model: req.model,
        });
      }
      if (usage) yield { type: "usage", ...usage };
      yield { type: "done", stopReason: stopReasonOf(finish, calls.size > 0) };
    } catch (err) {
      throw guard.fail(err);
    } finally {
      guard.dispose();
    }
  }

  return { id: cfg.id, api: "openai-completions", stream };
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
