import { providerSetupHint } from "../settings.js";
import { ToolError } from "../../../tool-contract/index.js";
import { endpoint, postJsonWithBearer } from "../http.js";
import type { SearchProviderImpl } from "../types.js";

interface TavilyResponse {
  answer?: string | null;
  results?: Array<{ title?: string; url?: string; content?: string }>;
}

const regionNames = new Intl.DisplayNames("en", { type: "region" });

/** Tavily wants a full lower-case country name ("united kingdom"), not an ISO code. */
function tavilyCountry(code: string): string {
  const name = regionNames.of(code.toUpperCase());
  if (!name || name === code.toUpperCase()) throw new ToolError(`"${code}" is not an ISO 3166 country code (e.g. US, DE, GB).`);
  return name.toLowerCase();
}

/** Tavily: `POST /search` with a bearer key; country only for the general topic, no language. */
export const tavilySearch: SearchProviderImpl = async ({ provider, request, signal }) => {
  const payload: Record<string, unknown> = { query: request.query, max_results: request.count, search_depth: "basic", topic: "general" };
  if (request.country) payload.country = tavilyCountry(request.country);
  const body = (await postJsonWithBearer("tavily", endpoint(provider.baseUrl, "/search"), payload, provider.apiKey, signal, (status) =>
    status === 401 ? `Check ${providerSetupHint("tavily")}.` : undefined,
  )) as TavilyResponse;
  return {
    results: (body.results ?? []).filter((r) => r.url).map((r) => ({ title: r.title ?? r.url!, url: r.url!, snippet: r.content ?? "" })),
    ...(request.language ? { ignored: ["language"] } : {}),
  };
};
