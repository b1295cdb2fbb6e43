import { endpoint, requestJson } from "../http.js";
import type { SearchProviderImpl } from "../types.js";

interface SearxngResponse {
  results?: Array<{ title?: string; url?: string; content?: string }>;
}

/**
 * SearXNG: `GET /search?format=json`. The instance has no result count (the tool keeps the first
 * `count`), and no country of its own: a country joins the language as a region (`de-AT`).
 */
export const searxngSearch: SearchProviderImpl = async ({ provider, request, signal }) => {
  const language = request.language
    ? request.country && !request.language.includes("-")
      ? `${request.language}-${request.country}`
      : request.language
    : undefined;
  const body = (await requestJson(
    "searxng",
    endpoint(provider.baseUrl, "/search", { q: request.query, format: "json", language, pageno: "1" }),
    { headers: { accept: "application/json" }, signal },
    (status) =>
      status === 403
        ? "The instance probably does not allow the JSON format: add json to search.formats in its settings.yml (tools.web.search.searxng.baseUrl names the instance)."
        : undefined,
  )) as SearxngResponse;
  return {
    results: (body.results ?? [])
      .filter((r) => r.url)
      .slice(0, request.count)
      .map((r) => ({ title: r.title ?? r.url!, url: r.url!, snippet: r.content ?? "" })),
    ...(request.country && !request.language ? { ignored: ["country"] } : {}),
  };
};
