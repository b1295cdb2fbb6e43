import type { OpenClawConfig } from "../../config/index.js";
import { ToolError } from "../../tool-contract/index.js";

export type SearchProviderId = "brave" | "tavily" | "perplexity" | "searxng";

/** Detection order when `tools.web.search.provider` is unset. */
export const SEARCH_PROVIDERS: readonly SearchProviderId[] = ["brave", "tavily", "perplexity", "searxng"];

const DEFAULT_BASE_URLS: Record<Exclude<SearchProviderId, "searxng">, string> = {
  brave: "https://api.search.brave.com",
  tavily: "https://api.tavily.com",
  perplexity: "https://api.perplexity.ai",
};

const KEY_ENV: Record<Exclude<SearchProviderId, "searxng">, string> = {
  brave: "BRAVE_API_KEY",
  tavily: "TAVILY_API_KEY",
  perplexity: "PERPLEXITY_API_KEY",
};

/** What one search needs: the provider, where it lives and how to authenticate. */
export interface ResolvedSearchProvider {
  id: SearchProviderId;
  baseUrl: string;
  /** Absent for SearXNG. */
  apiKey?: string;
  /** Perplexity / OpenAI-compatible search model. */
  model?: string;
}

export interface WebSearchSettings {
  maxResults: number;
  timeoutSeconds: number;
  cacheTtlMs: number;
}

type SearchConfig = NonNullable<NonNullable<NonNullable<OpenClawConfig["tools"]>["web"]>["search"]>;

function searchConfig(config: OpenClawConfig | undefined): Partial<SearchConfig> {
  return config?.tools?.web?.search ?? {};
}

/** `tools.web.search` limits with defaults applied (5 results, 30 s, 5 minutes of cache). */
export function resolveWebSearchSettings(config: OpenClawConfig | undefined): WebSearchSettings {
  const raw = searchConfig(config);
  return {
    maxResults: raw.maxResults ?? 5,
    timeoutSeconds: raw.timeoutSeconds ?? 30,
    cacheTtlMs: (raw.cacheTtlMinutes ?? 5) * 60_000,
  };
}

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

function tryResolve(id: SearchProviderId, raw: Partial<SearchConfig>, env: NodeJS.ProcessEnv): ResolvedSearchProvider | undefined {
  if (id === "searxng") {
    const baseUrl = nonEmpty(raw.searxng?.baseUrl) ?? nonEmpty(env.SEARXNG_URL);
    return baseUrl ? { id, baseUrl } : undefined;
  }
  const entry = raw[id];
  const apiKey = nonEmpty(entry?.apiKey) ?? nonEmpty(env[KEY_ENV[id]]);
  if (!apiKey) return undefined;
  const resolved: ResolvedSearchProvider = { id, apiKey, baseUrl: nonEmpty(entry?.baseUrl) ?? DEFAULT_BASE_URLS[id] };
  if (id === "perplexity") resolved.model = raw.perplexity?.model ?? "sonar";
  return resolved;
}

/** How to configure one provider, for error messages. */
export function providerSetupHint(id: SearchProviderId): string {
  return id === "searxng" ? "tools.web.search.searxng.baseUrl (or SEARXNG_URL)" : `tools.web.search.${id}.apiKey (or ${KEY_ENV[id]})`;
}

/**
 * The provider for a search: `tools.web.search.provider`, or the first of brave, tavily,
 * perplexity, searxng with a key (config first, then `env`). Throws a ToolError naming the config
 * key and environment variable to set when nothing is configured.
 */
export function resolveSearchProvider(config: OpenClawConfig | undefined, env: NodeJS.ProcessEnv): ResolvedSearchProvider {
  const raw = searchConfig(config);
  if (raw.provider) {
    const resolved = tryResolve(raw.provider, raw, env);
    if (resolved) return resolved;
    throw new ToolError(
      `web_search is set to use ${raw.provider} (tools.web.search.provider) but has no ${raw.provider === "searxng" ? "instance URL" : "API key"}: set ${providerSetupHint(raw.provider)} in the config, e.g. \`openclaw config set ${providerSetupHint(raw.provider).split(" ")[0]} ...\`, then retry.`,
      { provider: raw.provider, configured: false },
    );
  }
  for (const id of SEARCH_PROVIDERS) {
    const resolved = tryResolve(id, raw, env);
    if (resolved) return resolved;
  }
  throw new ToolError(
    `web_search is not configured: set tools.web.search.provider to brave, tavily, perplexity or searxng in the config and give it a key: ${SEARCH_PROVIDERS.map(providerSetupHint).join(", ")}.`,
    { configured: false },
  );
}
