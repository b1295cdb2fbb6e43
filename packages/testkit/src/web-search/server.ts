import { createServer, type IncomingMessage } from "node:http";
import { listenOnLoopback, trackSockets } from "../net/listen.js";
import { DEFAULT_DOCS } from "./corpus.js";
import { brave, forcedError, type FakeReply, perplexity, type ProviderContext, searxng, tavily } from "./providers.js";
import type { FakeSearchProvider, FakeSearchRequest, FakeWebSearch, FakeWebSearchOptions } from "./types.js";

const PROVIDERS: readonly FakeSearchProvider[] = ["brave", "tavily", "perplexity", "searxng"];
const HANDLERS = { brave, tavily, perplexity, searxng } as const;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Starts a fake of the Brave Search, Tavily, Perplexity (Sonar chat completions) and SearXNG
 * (JSON format) APIs on 127.0.0.1. Each lives under its own prefix (`baseUrls.brave` is
 * `<origin>/brave`, and so on), checks the provider's auth header, records every request and
 * answers from one small corpus of pages, honouring count, country and language as the real API does.
 */
export async function startFakeWebSearch(options: FakeWebSearchOptions = {}): Promise<FakeWebSearch> {
  const docs = options.docs ?? DEFAULT_DOCS;
  const keys = { brave: "brave-test-key", tavily: "tvly-test-key", perplexity: "pplx-test-key", ...options.keys };
  const searxngFormats = options.searxngFormats ?? ["html", "json"];
  const requests: FakeSearchRequest[] = [];
  const failures = new Map<FakeSearchProvider, { status: number; message: string }[]>();
  const hangs = new Set<FakeSearchProvider>();

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const [, prefix = "", ...rest] = url.pathname.split("/");
      const provider = PROVIDERS.find((p) => p === prefix);
      let reply: FakeReply;
      if (!provider) {
        reply = { status: 404, body: { error: `unknown provider prefix /${prefix}` } };
      } else {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        }
        const record: FakeSearchRequest = {
          provider,
          method: req.method ?? "GET",
          path: `/${rest.join("/")}`,
          query: Object.fromEntries(url.searchParams),
          headers,
          body: req.method === "POST" ? await readJson(req) : undefined,
        };
        requests.push(record);
        if (hangs.delete(provider)) return; // the socket stays open; close() destroys it
        const forced = failures.get(provider)?.shift();
        const ctx: ProviderContext = { docs, key: provider === "searxng" ? "" : keys[provider], searxngFormats };
        reply = forced ? forcedError(provider, forced.status, forced.message) : HANDLERS[provider](record, ctx);
      }
      const type = reply.contentType ?? "application/json";
      res.writeHead(reply.status, { "content-type": type });
      res.end(type === "application/json" ? JSON.stringify(reply.body) : String(reply.body));
    })().catch((err: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    });
  });
  const sockets = trackSockets(server);
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrls: { brave: `${origin}/brave`, tavily: `${origin}/tavily`, perplexity: `${origin}/perplexity`, searxng: `${origin}/searxng` },
    keys,
    requests,
    requestsFor: (provider) => requests.filter((r) => r.provider === provider),
    failNext(provider, status, message = `fake ${provider} failure`) {
      const list = failures.get(provider) ?? [];
      list.push({ status, message });
      failures.set(provider, list);
    },
    hangNext(provider) {
      hangs.add(provider);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
