import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool } from "../../tool-contract/index.js";
import { createSearchCache, type SearchCache } from "./cache.js";
import { providerName, SearchHttpError } from "./http.js";
import { braveSearch } from "./providers/brave.js";
import { perplexitySearch } from "./providers/perplexity.js";
import { searxngSearch } from "./providers/searxng.js";
import { tavilySearch } from "./providers/tavily.js";
import { resolveSearchProvider, resolveWebSearchSettings, type SearchProviderId } from "./settings.js";
import type { SearchProviderImpl, SearchRequest, SearchResponse } from "./types.js";

const schema = z.strictObject({
  query: z.string().trim().min(1).describe("What to search for."),
  count: z.int().min(1).max(20).optional().describe("Number of results."),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "a two-letter ISO 3166 country code such as US or DE")
    .optional()
    .describe("Country to favour, e.g. US or DE."),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z]{2})?$/, "an ISO 639-1 language code such as en or de")
    .optional()
    .describe("Result language, e.g. en or de."),
});

const IMPLEMENTATIONS: Record<SearchProviderId, SearchProviderImpl> = {
  brave: braveSearch,
  tavily: tavilySearch,
  perplexity: perplexitySearch,
  searxng: searxngSearch,
};

/** Shared by every web_search tool in the process, so a repeated search in a new run is still cached. */
const sharedCache = createSearchCache<SearchResponse>();

export interface WebSearchToolOptions {
  /** Where API keys and SEARXNG_URL are read when the config has none (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Answers cache (default: one per process, 100 entries). */
  cache?: SearchCache<SearchResponse>;
}

function format(query: string, providerLabel: string, res: SearchResponse, cached: boolean): string {
  const lines: string[] = [`Search results for "${query}" from ${providerLabel}${cached ? " (cached)" : ""}:`];
  if (res.answer) lines.push("", `Answer: ${res.answer}`, "", "Sources:");
  if (res.results.length === 0) lines.push("", "No results.");
  res.results.forEach((r, i) => {
    lines.push("", `${i + 1}. ${r.title}`, `   ${r.url}`);
    if (r.snippet) lines.push(`   ${r.snippet}`);
  });
  if (res.ignored?.length) lines.push("", `[${providerLabel} does not support ${res.ignored.join(" and ")}; it was not applied.]`);
  return lines.join("\n");
}

/**
 * The `web_search` tool: one query to the configured provider (`tools.web.search.provider`:
 * Brave Search, Tavily, Perplexity or another OpenAI-compatible search model, or SearXNG), answered
 * as numbered title / URL / snippet entries (Perplexity adds its answer text). `count` defaults to
 * `tools.web.search.maxResults` (5); `country` and `language` are passed where the provider has
 * them and reported as not applied otherwise. Identical searches are answered from memory for
 * `cacheTtlMinutes` (5). With no provider configured the call fails naming the key to set.
 */
export function createWebSearchTool(options: WebSearchToolOptions = {}): AgentTool {
  const cache = options.cache ?? sharedCache;
  return defineTool({
    name: "web_search",
    groups: ["group:web"],
    description: "Search the web and get a list of results (title, URL, snippet). Use web_fetch to read a result in full.",
    schema,
    async run(args, ctx) {
      const settings = resolveWebSearchSettings(ctx.config);
      const provider = resolveSearchProvider(ctx.config, options.env ?? process.env);
      const request: SearchRequest = {
        query: args.query,
        count: args.count ?? settings.maxResults,
        ...(args.country ? { country: args.country.toUpperCase() } : {}),
        ...(args.language ? { language: args.language } : {}),
      };
      const label = providerName(provider.id);
      const key = JSON.stringify([
        provider.id,
        provider.baseUrl,
        provider.model,
        request.query,
        request.count,
        request.country,
        request.language,
      ]);
      const details = { provider: provider.id, query: request.query, count: request.count };
      const hit = settings.cacheTtlMs > 0 ? cache.get(key, settings.cacheTtlMs) : undefined;
      if (hit) return { content: format(request.query, label, hit, true), details: { ...details, cached: true, results: hit.results } };

      const timeout = AbortSignal.timeout(settings.timeoutSeconds * 1000);
      let res: SearchResponse;
      try {
        res = await IMPLEMENTATIONS[provider.id]({ provider, request, signal: AbortSignal.any([ctx.signal, timeout]) });
      } catch (err) {
        if (err instanceof ToolError)
          throw err instanceof SearchHttpError ? new ToolError(`web_search failed: ${err.message}`, err.details) : err;
        if (timeout.aborted)
          throw new ToolError(`${label} did not answer within ${settings.timeoutSeconds}s (tools.web.search.timeoutSeconds).`, details);
        if (ctx.signal.aborted) throw new ToolError("web_search was aborted.", details);
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        throw new ToolError(
          `Could not reach ${label} at ${provider.baseUrl}: ${(err as Error).message}${cause ? ` (${cause})` : ""}.`,
          details,
        );
      }
      if (settings.cacheTtlMs > 0) cache.set(key, res);
      return { content: format(request.query, label, res, false), details: { ...details, cached: false, results: res.results } };
    },
  });
}
