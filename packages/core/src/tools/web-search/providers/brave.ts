import { providerSetupHint } from "../settings.js";
import { endpoint, plainText, requestJson } from "../http.js";
import type { SearchProviderImpl } from "../types.js";

interface BraveResponse {
  web?: { results?: Array<{ title?: string; url?: string; description?: string }> };
}

/** Brave Search web results: `GET /res/v1/web/search` with `X-Subscription-Token`. */
export const braveSearch: SearchProviderImpl = async ({ provider, request, signal }) => {
  const url = endpoint(provider.baseUrl, "/res/v1/web/search", {
    q: request.query,
    count: String(request.count),
    country: request.country,
    search_lang: request.language?.split("-")[0]?.toLowerCase(),
  });
  const body = (await requestJson(
    "brave",
    url,
    { headers: { accept: "application/json", "x-subscription-token": provider.apiKey ?? "" }, signal },
    (status) => (status === 401 || status === 422 ? `Check ${providerSetupHint("brave")}.` : undefined),
  )) as BraveResponse;
  return {
    results: (body.web?.results ?? [])
      .filter((r) => r.url)
      .map((r) => ({ title: plainText(r.title), url: r.url!, snippet: plainText(r.description) })),
  };
};
