import type { ResolvedSearchProvider } from "./settings.js";

/** One search hit as the tool returns it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** What a provider answers: hits, and for answer engines (Perplexity) the answer text. */
export interface SearchResponse {
  results: SearchResult[];
  answer?: string;
  /** Parameters the provider could not apply (e.g. `language` on Tavily). */
  ignored?: string[];
}

export interface SearchRequest {
  query: string;
  count: number;
  /** ISO 3166 alpha-2, upper case. */
  country?: string;
  /** ISO 639-1 (or a region tag such as `pt-BR`). */
  language?: string;
}

export interface ProviderCall {
  provider: ResolvedSearchProvider;
  request: SearchRequest;
  signal: AbortSignal;
}

export type SearchProviderImpl = (call: ProviderCall) => Promise<SearchResponse>;
