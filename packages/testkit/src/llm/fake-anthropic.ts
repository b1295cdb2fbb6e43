import { argumentsText, estimateTokens, fakeId, splitText, summarizeTurn } from "./script.js";
import { startFakeServer, type ExchangeContext, type ProtocolHandler } from "./server.js";
import type { FakeErrorSpec, FakeModelServer, FakeModelServerOptions, FakeTurn } from "./types.js";

interface AnthropicErrorObject {
  type: string;
  message: string;
}

function defaultError(spec: FakeErrorSpec): AnthropicErrorObject {
  const { status } = spec;
  if (spec.contextOverflow) return { type: "invalid_request_error", message: "prompt is too long: 204817 tokens > 200000 maximum" };
  if (status === 401) return { type: "authentication_error", message: "invalid x-api-key" };
  if (status === 402) return { type: "billing_error", message: "Your credit balance is too low to access the Anthropic API." };
  if (status === 403) return { type: "permission_error", message: "Your API key does not have permission to use the specified resource." };
  if (status === 404) return { type: "not_found_error", message: "model: not found" };
  if (status === 413) return { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." };
  if (status === 429) {
    return {
      type: "rate_limit_error",
      message:
        "This request would exceed the rate limit for your organization of 50 requests per minute. Please reduce the prompt length or the maximum tokens requested, or try again later.",
    };
  }
  if (status === 529 || status === 503) return { type: "overloaded_error", message: "Overloaded" };
  if (status === 504) return { type: "timeout_error", message: "Request timed out." };
  if (status >= 500) return { type: "api_error", message: "Internal server error" };
  return { type: "invalid_request_error", message: "Invalid request." };
}

function errorBody(spec: FakeErrorSpec, requestId: string): unknown {
  if (spec.body !== undefined) return spec.body;
  const error = defaultError(spec);
  return { type: "error", error: spec.message ? { ...error, message: spec.message } : error, request_id: requestId };
}

function sendError(ctx: ExchangeContext, spec: FakeErrorSpec, outcome: "error" | "rejected" = "error"): void {
  const requestId = fakeId("req_");
  ctx.record.outcome = outcome;
  ctx.json(spec.status, errorBody(spec, requestId), {
    "request-id": requestId,
    ...(spec.retryAfterSec !== undefined ? { "retry-after": String(spec.retryAfterSec) } : {}),
    ...spec.headers,
  });
}

/** Accepts the key as `x-api-key` or as `Authorization: Bearer` (newer SDKs send the latter). */
function presentedKey(headers: Record<string, string>): string {
  if (headers["x-api-key"]) return headers["x-api-key"];
  const auth = headers.authorization ?? "";
  return auth.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : "";
}

function checkHeaders(ctx: ExchangeContext): boolean {
  const expected = ctx.options.expectedApiKey;
  if (expected !== undefined) {
    const key = presentedKey(ctx.record.headers);
    if (key !== expected) {
      sendError(ctx, { status: 401, message: key ? "invalid x-api-key" : "x-api-key header is required" }, "rejected");
      return false;
    }
  }
  if (!ctx.record.headers["anthropic-version"]) {
    sendError(ctx, { status: 400, message: "anthropic-version: header is required" }, "rejected");
    return false;
  }
  return true;
}

function requestInputChars(body: any): number {
  return JSON.stringify(body?.system ?? "").length + JSON.stringify(body?.messages ?? []).length + JSON.stringify(body?.tools ?? []).length;
}

type Block =
  | { type: "text"; text: string; citations: null }
  | { type: "tool_use"; id: string; name: string; input: unknown; caller?: unknown };

async function handleMessages(ctx: ExchangeContext): Promise<void> {
  if (!checkHeaders(ctx)) return;
  const body = ctx.record.body;
  const model = typeof body?.model === "string" ? body.model : "unknown";
  if (!body || !Array.isArray(body.messages) || typeof body.max_tokens !== "number") {
    sendError(ctx, { status: 400, message: !Array.isArray(body?.messages) ? "messages: Field required" : "max_tokens: Field required" });
    return;
  }
  const turn: FakeTurn = await ctx.nextTurn();
  const summary = summarizeTurn(turn);
  const stream = body.stream === true;
  const id = fakeId("msg_");
  const inputTokens = summary.usage?.inputTokens ?? estimateTokens(requestInputChars(body));
  const blocks: Block[] = [];
  let outputChars = 0;
  let started = false;
  let openIndex = -1;

  const event = (name: string, data: unknown) => ctx.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  const usageBase = {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    server_tool_use: null,
    service_tier: "standard",
  };
  const messageShell = (content: Block[], stopReason: string | null, outputTokens: number) => ({
    id,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: { ...usageBase, output_tokens: outputTokens },
  });
  const start = (): boolean => {
    if (!stream || started) return true;
    started = true;
    ctx.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "request-id": fakeId("req_"),
    });
    return event("message_start", { type: "message_start", message: messageShell([], null, 1) }) && event("ping", { type: "ping" });
  };
  const closeBlock = (): boolean => {
    if (openIndex < 0) return true;
    const index = openIndex;
    openIndex = -1;
    return !stream || event("content_block_stop", { type: "content_block_stop", index });
  };
  const pace = async () => (ctx.options.chunkDelayMs > 0 ? ctx.sleep(ctx.options.chunkDelayMs) : !ctx.signal.aborted);

  for (const step of turn) {
    if (ctx.signal.aborted) return;
    if ("delayMs" in step) {
      if (!(await ctx.sleep(step.delayMs))) return;
    } else if ("until" in step) {
      if (!(await ctx.hold(step.until))) return;
    } else if ("text" in step) {
      if (!start()) return;
      outputChars += step.text.length;
      let block = openIndex >= 0 ? blocks[openIndex] : undefined;
      if (block?.type !== "text") {
        if (!closeBlock()) return;
        block = { type: "text", text: "", citations: null };
        blocks.push(block);
        openIndex = blocks.length - 1;
        if (
          stream &&
          !event("content_block_start", {
            type: "content_block_start",
            index: openIndex,
            content_block: { type: "text", text: "", citations: null },
          })
        )
          return;
      }
      block.text += step.text;
      if (!stream) continue;
      for (const piece of splitText(step.text, step.chunkChars ?? ctx.options.chunkChars)) {
        if (
          !event("content_block_delta", { type: "content_block_delta", index: openIndex, delta: { type: "text_delta", text: piece } }) ||
          !(await pace())
        )
          return;
      }
    } else if ("toolCall" in step) {
      if (!start() || !closeBlock()) return;
      const json = argumentsText(step.toolCall.arguments);
      let input: unknown;
      try {
        input = JSON.parse(json);
      } catch {
        input = {};
      }
      const block: Block = {
        type: "tool_use",
        id: step.toolCall.id ?? fakeId("toolu_"),
        name: step.toolCall.name,
        input,
        caller: { type: "direct" },
      };
      blocks.push(block);
      const index = blocks.length - 1;
      outputChars += step.toolCall.name.length + json.length;
      if (!stream) continue;
      if (!event("content_block_start", { type: "content_block_start", index, content_block: { ...block, input: {} } })) return;
      for (const piece of splitText(json, ctx.options.chunkChars)) {
        if (
          !(await pace()) ||
          !event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } })
        )
          return;
      }
      if (!event("content_block_stop", { type: "content_block_stop", index })) return;
    } else if ("error" in step) {
      if (!stream || !started) {
        sendError(ctx, step.error);
        return;
      }
      ctx.record.outcome = "error";
      event("error", errorBody(step.error, fakeId("req_")));
      ctx.res.end();
      return;
    } else if ("hangUp" in step) {
      ctx.record.outcome = "hung_up";
      ctx.hangUp();
      return;
    }
  }

  const stopReason = summary.forcedStop === "length" ? "max_tokens" : summary.hasToolCalls ? "tool_use" : "end_turn";
  const outputTokens = summary.usage?.outputTokens ?? estimateTokens(outputChars);
  if (!stream) {
    ctx.json(200, messageShell(blocks, stopReason, outputTokens), { "request-id": fakeId("req_") });
    return;
  }
  if (!start() || !closeBlock()) return;
  const delta = { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null };
  if (
    !event("message_delta", {
      type: "message_delta",
      delta,
      usage: { ...usageBase, output_tokens: outputTokens, output_tokens_details: null },
    })
  )
    return;
  if (!event("message_stop", { type: "message_stop" })) return;
  ctx.res.end();
}

const anthropicProtocol: ProtocolHandler = {
  basePathForClient: "",
  isModelCall: (method, path) => method === "POST" && path === "/v1/messages",
  handleModelCall: handleMessages,
  handleOther: (ctx, method, path, headers) => {
    const bare = path.split("?")[0];
    if (method === "GET" && bare === "/v1/models") {
      const expected = ctx.options.expectedApiKey;
      if (expected !== undefined && presentedKey(headers) !== expected) {
        const message = presentedKey(headers) ? "invalid x-api-key" : "x-api-key header is required";
        ctx.json(401, { type: "error", error: { type: "authentication_error", message }, request_id: fakeId("req_") });
        return;
      }
      const data = ctx.options.models.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
      ctx.json(200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
      return;
    }
    ctx.json(404, {
      type: "error",
      error: { type: "not_found_error", message: `Not found: ${method} ${path}` },
      request_id: fakeId("req_"),
    });
  },
};

/**
 * Starts a fake Anthropic Messages server on 127.0.0.1 (a free port) that speaks the real wire
 * format: `POST /v1/messages` streamed as SSE events (`message_start`, `ping`,
 * `content_block_start` for text and tool_use blocks, `content_block_delta` with `text_delta` or
 * `input_json_delta`, `content_block_stop`, `message_delta` with the stop reason and usage,
 * `message_stop`; an `error` event for in-stream errors) or as one JSON message, and
 * `GET /v1/models`. It requires an `anthropic-version` header and, with `expectedApiKey`, a
 * matching key in `x-api-key` or `Authorization: Bearer`. Errors use Anthropic's
 * `{type:"error", error:{type,message}, request_id}` shape. Give `baseUrl` (the bare origin) to
 * the client library.
 */
export function startFakeAnthropic(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  return startFakeServer(anthropicProtocol, options);
}
