// The four search APIs' request checks and response shapes, as documented by each provider.
import { highlight, searchCorpus } from "./corpus.js";
import type { FakeSearchDoc, FakeSearchRequest } from "./types.js";

export interface FakeReply {
  status: number;
  body: unknown;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface ProviderContext {
  docs: readonly FakeSearchDoc[];
  key: string;
  searxngFormats: readonly string[];
}

const json = (status: number, body: unknown): FakeReply => ({ status, body });

/** Brave's `ErrorResponse` body. */
export function braveError(status: number, code: string, detail: string): FakeReply {
  return json(status, { type: "ErrorResponse", error: { id: "fake-error", status, code, detail, meta: {} } });
}

/** Brave Search: `GET /res/v1/web/search`, key in `X-Subscription-Token`. */
export function brave(req: FakeSearchRequest, ctx: ProviderContext): FakeReply {
  if (req.method !== "GET" || req.path !== "/res/v1/web/search") return braveError(404, "NOT_FOUND", "Resource not found.");
  if (req.headers["x-subscription-token"] !== ctx.key)
    return braveError(422, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.");
  const q = req.query.q ?? "";
  if (q.trim() === "") return braveError(422, "VALIDATION", "Unable to validate request parameter(s): q is required.");
  const count = req.query.count === undefined ? 20 : Number(req.query.count);
  if (!Number.isInteger(count) || count < 1 || count > 20)
    return braveError(422, "VALIDATION", "Unable to validate request parameter(s): count must be between 1 and 20.");
  const found = searchCorpus(ctx.docs, { q, country: req.query.country, language: req.query.search_lang });
  return json(200, {
    type: "search",
    query: { original: q, more_results_available: found.length > count },
    mixed: { type: "mixed", main: found.slice(0, count).map((_, index) => ({ type: "web", index, all: false })) },
    web: {
      type: "search",
      family_friendly: true,
      results: found.slice(0, count).map((d) => ({
        type: "search_result",
        subtype: "generic",
        title: d.title,
        url: d.url,
        description: highlight(d.snippet, q),
        language: d.language ?? "en",
        family_friendly: true,
        is_source_local: false,
        meta_url: { scheme: "https", hostname: new URL(d.url).hostname },
      })),
    },
  });
}

const regionNames = new Intl.DisplayNames("en", { type: "region" });

/** Tavily: `POST /search`, `Authorization: Bearer tvly-...`; `country` is a full lower-case name. */
export function tavily(req: FakeSearchRequest, ctx: ProviderContext): FakeReply {
  if (req.method !== "POST" || req.path !== "/search") return json(404, { detail: "Not Found" });
  const body = (req.body ?? {}) as Record<string, unknown>;
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  if ((bearer ?? body.api_key) !== ctx.key) return json(401, { detail: { error: "Unauthorized: missing or invalid API key." } });
  if (typeof body.query !== "string" || body.query.trim() === "") return json(400, { detail: { error: "Query is missing." } });
  const max = body.max_results === undefined ? 5 : body.max_results;
  if (typeof max !== "number" || !Number.isInteger(max) || max < 0 || max > 20)
    return json(400, { detail: { error: "max_results must be an integer between 0 and 20." } });
  let country: string | undefined;
  if (body.country !== undefined) {
    const name = String(body.country);
    const code = Object.entries(isoByName()).find(([n]) => n === name)?.[1];
    if (!code) return json(400, { detail: { error: `Invalid country: ${name}. Use a full country name such as "united states".` } });
    country = code;
  }
  const found = searchCorpus(ctx.docs, { q: body.query, country }).slice(0, max);
  return json(200, {
    query: body.query,
    follow_up_questions: null,
    answer: null,
    images: [],
    results: found.map((d, i) => ({ title: d.title, url: d.url, content: d.snippet, score: 0.9 - i * 0.1, raw_content: null })),
    response_time: 0.42,
    request_id: "fake-request",
  });
}

let namesCache: Record<string, string> | undefined;
function isoByName(): Record<string, string> {
  if (namesCache) return namesCache;
  namesCache = {};
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = regionNames.of(code);
      // The first code wins: "GB" before its alias "UK".
      if (name && name !== code) namesCache[name.toLowerCase()] ??= code;
    }
  return namesCache;
}

/** Perplexity Sonar: `POST /chat/completions` (OpenAI-shaped), with `citations` and `search_results`. */
export function perplexity(req: FakeSearchRequest, ctx: ProviderContext): FakeReply {
  const err = (status: number, message: string, type: string) => json(status, { error: { message, type, code: status } });
  if (req.method !== "POST" || req.path !== "/chat/completions") return err(404, "Not found", "not_found");
  if (req.headers.authorization !== `Bearer ${ctx.key}`) return err(401, "Invalid API key provided.", "invalid_api_key");
  const body = (req.body ?? {}) as {
    model?: unknown;
    messages?: Array<{ role: string; content: string }>;
    web_search_options?: { user_location?: { country?: string } };
    search_language_filter?: string[];
  };
  // Bare Sonar names on Perplexity; "perplexity/sonar" through an OpenAI-compatible router (OpenRouter).
  const routed = typeof body.model === "string" && body.model.startsWith("perplexity/");
  if (typeof body.model !== "string" || !body.model.replace(/^perplexity\//, "").startsWith("sonar"))
    return err(400, `Invalid model '${String(body.model)}'. Permitted models: sonar, sonar-pro, sonar-reasoning-pro.`, "invalid_model");
  const q = [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content;
  if (!q) return err(400, "messages must end with a user message.", "invalid_message");
  const found = searchCorpus(ctx.docs, {
    q,
    country: body.web_search_options?.user_location?.country,
    language: body.search_language_filter?.[0],
  }).slice(0, 5);
  const answer = found.length === 0 ? "I could not find anything about that." : found.map((d, i) => `${d.snippet} [${i + 1}]`).join(" ");
  if (routed) {
    // OpenRouter's shape: no top-level citations; sources as url_citation annotations on the message.
    return json(200, {
      id: "gen-fake",
      model: body.model,
      object: "chat.completion",
      created: 1_700_000_000,
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          message: {
            role: "assistant",
            content: answer,
            annotations: found.map((d) => ({
              type: "url_citation",
              url_citation: { url: d.url, title: d.title, content: d.snippet, start_index: 0, end_index: 0 },
            })),
          },
        },
      ],
    });
  }
  return json(200, {
    id: "fake-completion",
    model: body.model,
    object: "chat.completion",
    created: 1_700_000_000,
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30, search_context_size: "low" },
    citations: found.map((d) => d.url),
    search_results: found.map((d) => ({ title: d.title, url: d.url, date: "2026-01-01", last_updated: "2026-01-02", snippet: d.snippet })),
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: answer } }],
  });
}

/** SearXNG: `GET /search?format=json`; a format not enabled in settings.yml answers 403. */
export function searxng(req: FakeSearchRequest, ctx: ProviderContext): FakeReply {
  if (req.method !== "GET" || (req.path !== "/search" && req.path !== "/"))
    return { status: 404, body: "<html><body>Not Found</body></html>", contentType: "text/html" };
  const format = req.query.format ?? "html";
  if (!ctx.searxngFormats.includes(format)) return { status: 403, body: "<html><body>Forbidden</body></html>", contentType: "text/html" };
  if (format !== "json") return { status: 200, body: "<html><body>results</body></html>", contentType: "text/html" };
  const q = req.query.q ?? "";
  const found = q.trim() === "" ? [] : searchCorpus(ctx.docs, { q, language: req.query.language });
  return json(200, {
    query: q,
    number_of_results: 0,
    results: found.map((d, i) => ({
      url: d.url,
      title: d.title,
      content: d.snippet,
      engine: "duckduckgo",
      engines: ["duckduckgo", "bing"],
      parsed_url: ["https", new URL(d.url).hostname, new URL(d.url).pathname, "", "", ""],
      positions: [i + 1],
      score: 2 / (i + 1),
      category: "general",
      template: "default.html",
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  });
}

/** The provider's own error body for a forced failure. */
export function forcedError(provider: FakeSearchRequest["provider"], status: number, message: string): FakeReply {
  switch (provider) {
    case "brave":
      return braveError(status, status === 429 ? "RATE_LIMITED" : "INTERNAL", message);
    case "tavily":
      return json(status, { detail: { error: message } });
    case "perplexity":
      return json(status, { error: { message, type: "api_error", code: status } });
    case "searxng":
      return { status, body: `<html><body>${message}</body></html>`, contentType: "text/html" };
  }
}
