import { ToolError } from "../../tool-contract/index.js";

/** A provider answered with an HTTP error; the message quotes the provider's own explanation. */
export class SearchHttpError extends ToolError {}

const NAMES = { brave: "Brave Search", tavily: "Tavily", perplexity: "Perplexity", searxng: "SearXNG" } as const;
export const providerName = (id: keyof typeof NAMES): string => NAMES[id];

/** The human part of a provider's error body (Brave `error.detail`, Tavily `detail.error`, OpenAI `error.message`). */
function explain(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    const at = (value: unknown, ...keys: string[]): unknown =>
      keys.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), value);
    const found = [
      at(body, "error", "detail"),
      at(body, "error", "message"),
      at(body, "detail", "error"),
      at(body, "detail"),
      at(body, "message"),
      at(body, "error"),
    ].find((v) => typeof v === "string");
    if (typeof found === "string") return found;
  } catch {
    // not JSON: an HTML error page, say
  }
  return text
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
}

/**
 * Sends one request and parses the JSON answer. HTTP errors become a {@link SearchHttpError}
 * quoting the provider and its message; `hint` is appended for statuses that usually mean a
 * configuration problem (401/403/422 on auth).
 */
export async function requestJson(
  provider: keyof typeof NAMES,
  url: URL,
  init: RequestInit & { signal: AbortSignal },
  hint?: (status: number) => string | undefined,
): Promise<unknown> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) {
    const extra = hint?.(res.status);
    throw new SearchHttpError(
      `${NAMES[provider]} answered HTTP ${res.status}${text ? `: ${explain(text)}` : ""}${extra ? ` ${extra}` : ""}`,
      { provider, status: res.status },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SearchHttpError(`${NAMES[provider]} answered with something that is not JSON (${text.slice(0, 80)}…).`, {
      provider,
      status: res.status,
    });
  }
}

/** Removes HTML tags and decodes the few entities search snippets carry (Brave wraps matches in <strong>). */
export function plainText(html: string | undefined): string {
  return (html ?? "")
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** `base` + `path`, keeping any path prefix of `base` (a proxy, or the fake's `/brave`). */
export function endpoint(base: string, path: string, params?: Record<string, string | undefined>): URL {
  const url = new URL(`${base.replace(/\/+$/, "")}${path}`);
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/** POSTs `payload` as JSON with `Authorization: Bearer <apiKey>` (Tavily, Perplexity) and parses the answer. */
export function postJsonWithBearer(
  provider: keyof typeof NAMES,
  url: URL,
  payload: unknown,
  apiKey: string | undefined,
  signal: AbortSignal,
  hint?: (status: number) => string | undefined,
): Promise<unknown> {
  return requestJson(
    provider,
    url,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey ?? ""}` },
      body: JSON.stringify(payload),
      signal,
    },
    hint,
  );
}
