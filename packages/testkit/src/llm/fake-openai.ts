import { argumentsText, estimateTokens, fakeId, splitText, summarizeTurn } from "./script.js";
import { startFakeServer, type ExchangeContext, type ProtocolHandler } from "./server.js";
import type { FakeErrorSpec, FakeModelServer, FakeModelServerOptions, FakeTurn } from "./types.js";

interface OpenAIErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

function maskKey(key: string): string {
  if (key.length <= 8) return "*".repeat(key.length);
  return `${key.slice(0, 3)}${"*".repeat(Math.min(key.length - 7, 20))}${key.slice(-4)}`;
}

function defaultError(spec: FakeErrorSpec, model: string): OpenAIErrorObject {
  const { status } = spec;
  if (spec.contextOverflow) {
    return {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    };
  }
  if (status === 401) {
    return {
      message: "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    };
  }
  if (status === 403)
    return { message: "You are not allowed to sample from this model.", type: "invalid_request_error", param: null, code: null };
  if (status === 404) {
    return {
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      type: "invalid_request_error",
      param: null,
      code: "model_not_found",
    };
  }
  if (status === 429) {
    const wait = spec.retryAfterSec ?? 1;
    return {
      message: `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${wait}s.`,
      type: "requests",
      param: null,
      code: "rate_limit_exceeded",
    };
  }
  if (status === 503 || status === 529) {
    return { message: "The engine is currently overloaded, please try again later.", type: "server_error", param: null, code: null };
  }
  if (status >= 500) {
    return {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      param: null,
      code: null,
    };
  }
  return { message: "Invalid request.", type: "invalid_request_error", param: null, code: null };
}

function errorObject(spec: FakeErrorSpec, model: string): OpenAIErrorObject {
  const base = defaultError(spec, model);
  return spec.message ? { ...base, message: spec.message } : base;
}

function errorHeaders(spec: FakeErrorSpec): Record<string, string> {
  return {
    "x-request-id": fakeId("req_"),
    ...(spec.retryAfterSec !== undefined ? { "retry-after": String(spec.retryAfterSec) } : {}),
    ...spec.headers,
  };
}

function sendError(ctx: ExchangeContext, spec: FakeErrorSpec, model: string): void {
  ctx.record.outcome = "error";
  ctx.json(spec.status, spec.body ?? { error: errorObject(spec, model) }, errorHeaders(spec));
}

/** The 401 error OpenAI answers when `headers` lack the expected key; undefined when they have it. */
function authError(expected: string | undefined, headers: Record<string, string>): OpenAIErrorObject | undefined {
  if (expected === undefined) return undefined;
  const auth = headers.authorization ?? "";
  const key = auth.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : "";
  if (key === expected) return undefined;
  return key
    ? {
        message: `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      }
    : {
        message:
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        type: "invalid_request_error",
        param: null,
        code: null,
      };
}

function checkAuth(ctx: ExchangeContext): boolean {
  const error = authError(ctx.options.expectedApiKey, ctx.record.headers);
  if (!error) return true;
  ctx.record.outcome = "rejected";
  ctx.json(401, { error }, { "x-request-id": fakeId("req_") });
  return false;
}

function requestInputChars(body: any): number {
  return JSON.stringify(body?.messages ?? []).length + JSON.stringify(body?.tools ?? []).length;
}

async function handleChatCompletion(ctx: ExchangeContext): Promise<void> {
  if (!checkAuth(ctx)) return;
  const body = ctx.record.body;
  const model = typeof body?.model === "string" ? body.model : "unknown";
  if (!body || !Array.isArray(body.messages)) {
    sendError(ctx, { status: 400, message: "'messages' is a required property" }, model);
    return;
  }
  const turn: FakeTurn = await ctx.nextTurn();
  const summary = summarizeTurn(turn);
  const id = fakeId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const stream = body.stream === true;
  const includeUsage = stream && body.stream_options?.include_usage === true;
  let outputChars = 0;
  let started = false;
  let text = "";
  const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = [];

  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_fake",
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    })}\n\n`;
  const delta = (d: Record<string, unknown>) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: null }]);
  const start = (): boolean => {
    if (!stream || started) return true;
    started = true;
    ctx.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-request-id": fakeId("req_"),
    });
    return ctx.write(delta({ role: "assistant", content: "", refusal: null }));
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
      text += step.text;
      if (!stream) continue;
      for (const piece of splitText(step.text, step.chunkChars ?? ctx.options.chunkChars)) {
        if (!ctx.write(delta({ content: piece })) || !(await pace())) return;
      }
    } else if ("toolCall" in step) {
      if (!start()) return;
      const call = {
        id: step.toolCall.id ?? fakeId("call_"),
        type: "function" as const,
        function: { name: step.toolCall.name, arguments: argumentsText(step.toolCall.arguments) },
      };
      const index = toolCalls.length;
      toolCalls.push(call);
      outputChars += call.function.name.length + call.function.arguments.length;
      if (!stream) continue;
      if (
        !ctx.write(delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }))
      )
        return;
      for (const piece of splitText(call.function.arguments, ctx.options.chunkChars)) {
        if (!(await pace()) || !ctx.write(delta({ tool_calls: [{ index, function: { arguments: piece } }] }))) return;
      }
    } else if ("error" in step) {
      if (!stream || !started) {
        sendError(ctx, step.error, model);
        return;
      }
      ctx.record.outcome = "error";
      ctx.write(`data: ${JSON.stringify(step.error.body ?? { error: errorObject(step.error, model) })}\n\n`);
      ctx.res.end();
      return;
    } else if ("hangUp" in step) {
      ctx.record.outcome = "hung_up";
      ctx.hangUp();
      return;
    }
  }

  const finishReason = summary.forcedStop === "length" ? "length" : summary.hasToolCalls ? "tool_calls" : "stop";
  const usage = summary.usage ?? { inputTokens: estimateTokens(requestInputChars(body)), outputTokens: estimateTokens(outputChars) };
  const usageBody = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
  if (!stream) {
    ctx.json(200, {
      id,
      object: "chat.completion",
      created,
      model,
      system_fingerprint: "fp_fake",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text || (toolCalls.length ? null : ""),
            refusal: null,
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage: usageBody,
    });
    return;
  }
  if (!start()) return;
  if (!ctx.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }]))) return;
  if (includeUsage && !ctx.write(chunk([], { usage: usageBody }))) return;
  if (!ctx.write("data: [DONE]\n\n")) return;
  ctx.res.end();
}

const openAIProtocol: ProtocolHandler = {
  basePathForClient: "/v1",
  isModelCall: (method, path) => method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions"),
  handleModelCall: handleChatCompletion,
  handleOther: (ctx, method, path, headers) => {
    const bare = path.split("?")[0];
    if (method === "GET" && (bare === "/v1/models" || bare === "/models")) {
      const error = authError(ctx.options.expectedApiKey, headers);
      if (error) {
        ctx.json(401, { error }, { "x-request-id": fakeId("req_") });
        return;
      }
      ctx.json(200, {
        object: "list",
        data: ctx.options.models.map((id) => ({ id, object: "model", created: 1700000000, owned_by: "openclaw-testkit" })),
      });
      return;
    }
    ctx.json(404, { error: { message: `Invalid URL (${method} ${path})`, type: "invalid_request_error", param: null, code: null } });
  },
};

/**
 * Starts a fake OpenAI-compatible server on 127.0.0.1 (a free port) that speaks the real Chat
 * Completions wire format: `POST /v1/chat/completions` streamed as SSE (`data: {chunk}` lines
 * with `choices[0].delta.content`, tool calls as `delta.tool_calls` pieces, a `finish_reason`
 * chunk, a usage chunk when `stream_options.include_usage` is set, then `data: [DONE]`) or as one
 * JSON response, and `GET /v1/models`. Errors use OpenAI's `{error:{message,type,param,code}}`
 * shape. Give `baseUrl` (which ends in `/v1`) to the client library.
 *
 * @example
 * const fake = await startFakeOpenAI({ script: [[{ text: "Hello" }, { toolCall: { name: "read", arguments: { path: "a" } } }]] });
 * const client = new OpenAI({ baseURL: fake.baseUrl, apiKey: "test" });
 */
export function startFakeOpenAI(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  return startFakeServer(openAIProtocol, options);
}
