import { providerSetupHint } from "../settings.js";
import { endpoint, postJsonWithBearer } from "../http.js";
import type { SearchProviderImpl, SearchResult } from "../types.js";

interface ChatCompletion {
  citations?: string[];
  search_results?: Array<{ title?: string; url?: string; snippet?: string }>;
  choices?: Array<{
    message?: {
      content?: string | null;
      /** OpenAI-style citations (OpenRouter and other OpenAI-compatible search models). */
      annotations?: Array<{ type?: string; url_citation?: { url?: string; title?: string; content?: string } }>;
    };
  }>;
}

function sources(body: ChatCompletion): SearchResult[] {
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  const add = (url: string | undefined, title?: string, snippet?: string) => {
    if (!url || seen.has(url)) return;
    seen.add(url);
    out.push({ title: title || url, url, snippet: snippet ?? "" });
  };
  for (const r of body.search_results ?? []) add(r.url, r.title, r.snippet);
  for (const a of body.choices?.[0]?.message?.annotations ?? [])
    if (a.type === "url_citation") add(a.url_citation?.url, a.url_citation?.title, a.url_citation?.content);
  for (const url of body.citations ?? []) add(url);
  return out;
}

/**
 * Perplexity Sonar (or any OpenAI-compatible search model): `POST /chat/completions`; the answer
 * text comes back with its cited sources as the results.
 */
export const perplexitySearch: SearchProviderImpl = async ({ provider, request, signal }) => {
  const payload: Record<string, unknown> = {
    model: provider.model ?? "sonar",
    messages: [
      { role: "system", content: "Answer the search query briefly and cite your sources." },
      { role: "user", content: request.query },
    ],
  };
  if (request.country) payload.web_search_options = { user_location: { country: request.country } };
  if (request.language) payload.search_language_filter = [request.language.split("-")[0]!.toLowerCase()];
  const body = (await postJsonWithBearer(
    "perplexity",
    endpoint(provider.baseUrl, "/chat/completions"),
    payload,
    provider.apiKey,
    signal,
    (status) => (status === 401 ? `Check ${providerSetupHint("perplexity")}.` : undefined),
  )) as ChatCompletion;
  const answer = body.choices?.[0]?.message?.content ?? "";
  return { results: sources(body).slice(0, request.count), ...(answer ? { answer } : {}) };
};
