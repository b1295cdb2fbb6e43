// The Anthropic SDK lives in @openclaw/provider-anthropic, loaded on the first model call.
import { createAnthropicClient, type AnthropicMessagesClient, type AnthropicStreamEvent } from "./anthropic-client.js";
import { CallGuard, parseToolArguments } from "./call-guard.js";
import { missingApiKeyError } from "./errors.js";
import { acceptsImages, toolImages } from "./images.js";
import { PLACEHOLDER_API_KEY, type ProviderBuildOptions, type ResolvedProviderConfig } from "./registry.js";
import { ProviderError, type ChatMessage, type ModelProvider, type ModelRequest, type ModelStreamEvent, type ToolSchema } from "./types.js";

type ImageBlock = { type: "image"; source: { type: "base64"; media_type: string; data: string } };
type TextBlock = { type: "text"; text: string };
type ContentBlockParam =
  | TextBlock
  | ImageBlock
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string | Array<TextBlock | ImageBlock>; is_error?: boolean };
type MessageParam = { role: "user" | "assistant"; content: string | ContentBlockParam[] };
type ToolParam = { name: string; description: string; input_schema: Record<string, unknown> };

/** Output-token cap when neither the request nor `models.providers.<id>.models[].maxTokens` sets one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

function objectInput(args: unknown): Record<string, unknown> {
  if (args && typeof args === "object" && !Array.isArray(args)) return args as Record<string, unknown>;
  if (typeof args === "string") {
    const parsed = parseToolArguments(args);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  }
  return {};
}

/**
 * Maps the neutral history to Messages turns; tool results ride in user turns, same-role turns
 * are merged. With `vision`, a tool result's images become `image` blocks inside its `tool_result`.
 */
function toAnthropicMessages(messages: ChatMessage[], vision: boolean): MessageParam[] {
  const out: Array<{ role: "user" | "assistant"; content: ContentBlockParam[] }> = [];
  const push = (role: "user" | "assistant", blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "user") push("user", [{ type: "text", text: m.content }]);
    else if (m.role === "tool") {
      const images = toolImages(m, vision);
      const content = images.length
        ? [
            { type: "text" as const, text: m.content },
            ...images.map((i) => ({
              type: "image" as const,
              source: { type: "base64" as const, media_type: i.mimeType, data: i.data },
            })),
          ]
        : m.content;
      push("user", [{ type: "tool_result", tool_use_id: m.toolCallId, content, ...(m.isError ? { is_error: true } : {}) }]);
    } else {
      const blocks: ContentBlockParam[] = [];
      if (m.content) blocks.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: objectInput(c.arguments) });
      push("assistant", blocks);
    }
  }
  // A lone text block is sent as a plain string, the common wire shape.
  return out.map((m) =>
    m.content.length === 1 && m.content[0]?.type === "text" ? { role: m.role, content: (m.content[0] as { text: string }).text } : m,
  );
}

function toAnthropicTools(tools: ToolSchema[]): ToolParam[] {
  // The Messages API insists on an object schema; tools without a `type` get one.
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.parameters },
  }));
}

function stopReasonOf(reason: string | null | undefined): "stop" | "tool_use" | "length" {
  if (reason === "tool_use") return "tool_use";
  if (reason === "max_tokens" || reason === "model_context_window_exceeded") return "length";
  return "stop";
}

/**
 * A provider for the Anthropic Messages API (or a compatible endpoint) on `@anthropic-ai/sdk`, which
 * comes with @openclaw/provider-anthropic: the first call imports that package, and fails with a
 * ProviderError naming `models.providers.<id>` and the install command when it is missing.
 * Streams raw events (`messages.create` with `stream: true`); the system prompt goes in `system`;
 * tool calls map to `tool_use` blocks and results to `tool_result` blocks; the library's own
 * retries are off. Input tokens include cache reads and writes.
 */
export function createAnthropicMessagesProvider(cfg: ResolvedProviderConfig, options: ProviderBuildOptions = {}): ModelProvider {
  let client: Promise<AnthropicMessagesClient> | undefined;
  const getClient = (apiKey: string, model: string) => {
    client ??= createAnthropicClient(
      { apiKey, baseUrl: cfg.baseUrl, headers: cfg.headers, timeoutMs: cfg.timeoutMs },
      { provider: cfg.id, model, ...(options.configPath ? { configPath: options.configPath } : {}) },
    );
    client.catch(() => {
      client = undefined;
    });
    return client;
  };

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
      const body = {
        ...req.params,
        model: req.model,
        max_tokens: req.maxTokens ?? cfg.models.find((m) => m.id === req.model)?.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        messages: toAnthropicMessages(req.messages, acceptsImages(cfg.models, req.model)),
        stream: true,
        ...(req.system ? { system: req.system } : {}),
        ...(req.tools.length ? { tools: toAnthropicTools(req.tools) } : {}),
      };
      const anthropic = await getClient(cfg.apiKey ?? PLACEHOLDER_API_KEY, req.model);
      const events = (await anthropic.streamMessages(body, guard.signal)) as AsyncIterable<AnthropicStreamEvent>;

      const blocks = new Map<number, { kind: "text"; emitted: boolean } | { kind: "tool"; id: string; name: string; json: string }>();
      let inputTokens = 0;
      let outputTokens = 0;
      let stopReason: string | null | undefined;
      let finished = false;
      for await (const event of events) {
        guard.touch();
        switch (event.type) {
          case "message_start": {
            const u = event.message.usage;
            inputTokens = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
            outputTokens = u.output_tokens ?? 0;
            break;
          }
          case "content_block_start": {
            const block = event.content_block;
            if (block.type === "text") {
              blocks.set(event.index, { kind: "text", emitted: block.text !== "" });
              if (block.text) yield { type: "text_delta", text: block.text };
            } else if (block.type === "tool_use") {
              const initial =
                block.input && typeof block.input === "object" && Object.keys(block.input).length ? JSON.stringify(block.input) : "";
              blocks.set(event.index, { kind: "tool", id: block.id, name: block.name, json: initial });
            }
            break;
          }
          case "content_block_delta": {
            const block = blocks.get(event.index);
            if (event.delta.type === "text_delta" && block?.kind === "text" && event.delta.text) {
              block.emitted = true;
              yield { type: "text_delta", text: event.delta.text };
            } else if (event.delta.type === "input_json_delta" && block?.kind === "tool") {
              block.json += event.delta.partial_json;
            }
            break;
          }
          case "content_block_stop": {
            const block = blocks.get(event.index);
            if (block?.kind === "text" && block.emitted) yield { type: "text_end" };
            else if (block?.kind === "tool")
              yield { type: "tool_call", call: { id: block.id, name: block.name, arguments: parseToolArguments(block.json) } };
            blocks.delete(event.index);
            break;
          }
          case "message_delta": {
            stopReason = event.delta.stop_reason ?? stopReason;
            const u = event.usage;
            if (typeof u.output_tokens === "number") outputTokens = u.output_tokens;
            if (typeof u.input_tokens === "number")
              inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
            break;
          }
          case "message_stop":
            finished = true;
            break;
        }
      }
      guard.throwIfStopped();
      if (!finished) {
        throw new ProviderError({
          kind: "unknown",
          message: `${cfg.id}/${req.model}: the stream from ${cfg.baseUrl} ended before the model finished`,
          provider: cfg.id,
          model: req.model,
        });
      }
      yield { type: "usage", inputTokens, outputTokens };
      yield { type: "done", stopReason: stopReasonOf(stopReason) };
    } catch (err) {
      throw guard.fail(err);
    } finally {
      guard.dispose();
    }
  }

  return { id: cfg.id, api: "anthropic-messages", stream };
}
