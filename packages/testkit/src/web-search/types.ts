/** The search APIs the fake speaks, each under its own path prefix (`baseUrls[provider]`). */
export type FakeSearchProvider = "brave" | "tavily" | "perplexity" | "searxng";

/** One page the fake search engines know. */
export interface FakeSearchDoc {
  title: string;
  url: string;
  /** Plain-text summary; each API returns it in its own field (description, content, snippet). */
  snippet: string;
  /** ISO 3166 alpha-2 code; a search restricted to another country skips the page. */
  country?: string;
  /** ISO 639-1 code; a search restricted to another language skips the page. */
  language?: string;
}

/** A request as the fake received it. */
export interface FakeSearchRequest {
  provider: FakeSearchProvider;
  method: string;
  /** Path below the provider's prefix, e.g. `/res/v1/web/search`. */
  path: string;
  query: Record<string, string>;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Parsed JSON body of a POST. */
  body?: unknown;
}

export interface FakeWebSearchOptions {
  /** Pages every engine searches (default: a few pages about otters, in English and German). */
  docs?: FakeSearchDoc[];
  /** API key each provider accepts (defaults: `brave-test-key`, `tvly-test-key`, `pplx-test-key`). */
  keys?: Partial<Record<Exclude<FakeSearchProvider, "searxng">, string>>;
  /** Output formats the SearXNG instance allows (default `["html", "json"]`; without json it answers 403). */
  searxngFormats?: string[];
}

/** A running fake of the Brave, Tavily, Perplexity and SearXNG search APIs on 127.0.0.1. */
export interface FakeWebSearch {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Base URL to configure for each provider, e.g. `tools.web.search.brave.baseUrl`. */
  baseUrls: Record<FakeSearchProvider, string>;
  keys: Record<Exclude<FakeSearchProvider, "searxng">, string>;
  /** Every request, oldest first. */
  requests: FakeSearchRequest[];
  requestsFor(provider: FakeSearchProvider): FakeSearchRequest[];
  /** The provider's next request fails with this HTTP status, in the provider's own error shape. */
  failNext(provider: FakeSearchProvider, status: number, message?: string): void;
  /** The provider's next request gets no answer until the client gives up or the fake closes. */
  hangNext(provider: FakeSearchProvider): void;
  close(): Promise<void>;
}
