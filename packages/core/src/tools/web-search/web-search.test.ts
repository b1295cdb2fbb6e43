import { type FakeWebSearch, startFakeWebSearch } from "@openclaw/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { createSearchCache, createWebSearchTool, type SearchResult, type ToolResult } from "../index.js";

let fake: FakeWebSearch;
let box: TestSandbox;
beforeAll(async () => {
  fake = await startFakeWebSearch();
});
afterAll(() => fake.close());
beforeEach(() => {
  box = makeSandbox();
  fake.requests.length = 0;
});
afterEach(() => box.cleanup());

type Provider = "brave" | "tavily" | "perplexity" | "searxng";

function configFor(
  provider: Provider,
  extra: Record<string, unknown> = {},
  entryExtra: Record<string, unknown> = {},
): Record<string, unknown> {
  const entry = {
    ...(provider === "searxng" ? { baseUrl: fake.baseUrls.searxng } : { apiKey: fake.keys[provider], baseUrl: fake.baseUrls[provider] }),
    ...entryExtra,
  };
  return { tools: { web: { search: { provider, [provider]: entry, ...extra } } } };
}

async function search(
  raw: Record<string, unknown>,
  args: unknown,
  options: { env?: NodeJS.ProcessEnv; now?: () => number } = {},
): Promise<ToolResult> {
  const tool = createWebSearchTool({ env: options.env ?? {}, cache: createSearchCache(options.now ? { now: options.now } : {}) });
  return tool.execute(args, makeCtx(box, { config: makeConfig(raw) }));
}

const urls = (res: ToolResult) => ((res.details?.results ?? []) as SearchResult[]).map((r) => r.url);

describe("web_search providers", () => {
  it("Brave: sends the subscription token, count, country and language; strips Brave's <strong> highlights", async () => {
    const res = await search(configFor("brave"), { query: "otters hold hands", count: 2, country: "us", language: "en" });
    expect(res.isError).toBeFalsy();
    const [req] = fake.requestsFor("brave");
    expect(req).toMatchObject({
      method: "GET",
      path: "/res/v1/web/search",
      query: { q: "otters hold hands", count: "2", country: "US", search_lang: "en" },
      headers: { "x-subscription-token": fake.keys.brave },
    });
    expect(urls(res)).toHaveLength(2);
    expect(urls(res)[0]).toBe("https://www.example.org/otters-hold-hands");
    expect(res.content).toContain("1. Why do otters hold hands?\n   https://www.example.org/otters-hold-hands\n   Sea otters hold hands");
    expect(res.content).not.toContain("<strong>");
  });

  it("Tavily: bearer key, max_results and the country as Tavily's full name; says language was not applied", async () => {
    const res = await search(configFor("tavily"), { query: "otter", count: 3, country: "GB", language: "en" });
    expect(res.isError).toBeFalsy();
    const [req] = fake.requestsFor("tavily");
    expect(req).toMatchObject({
      method: "POST",
      path: "/search",
      headers: { authorization: `Bearer ${fake.keys.tavily}` },
      body: { query: "otter", max_results: 3, country: "united kingdom" },
    });
    expect(urls(res)).toContain("https://www.example.co.uk/river-otters");
    expect(urls(res)).not.toContain("https://www.example.org/otters-hold-hands");
    expect(res.content).toContain("Tavily does not support language");
  });

  it("Perplexity: asks the sonar model and returns its answer with the cited sources", async () => {
    const res = await search(configFor("perplexity"), { query: "why do otters hold hands", country: "US", language: "en" });
    expect(res.isError).toBeFalsy();
    const [req] = fake.requestsFor("perplexity");
    expect(req).toMatchObject({
      method: "POST",
      path: "/chat/completions",
      headers: { authorization: `Bearer ${fake.keys.perplexity}` },
      body: {
        model: "sonar",
        messages: expect.arrayContaining([{ role: "user", content: "why do otters hold hands" }]),
        web_search_options: { user_location: { country: "US" } },
        search_language_filter: ["en"],
      },
    });
    expect(res.content).toMatch(/Answer: .*drift apart.*\[1\]/);
    expect(res.content).toContain("Sources:");
    expect(urls(res)[0]).toBe("https://www.example.org/otters-hold-hands");
  });

  it("an OpenAI-compatible search model (OpenRouter's perplexity/sonar): sources from url_citation annotations", async () => {
    const res = await search(configFor("perplexity", {}, { model: "perplexity/sonar" }), { query: "otters hold hands", count: 2 });
    expect(res.isError).toBeFalsy();
    expect(fake.requestsFor("perplexity")[0]!.body).toMatchObject({ model: "perplexity/sonar" });
    expect(res.content).toContain("Answer: ");
    expect(urls(res)).toHaveLength(2);
    expect(urls(res)[0]).toBe("https://www.example.org/otters-hold-hands");
    expect(res.details).toMatchObject({ results: [{ title: "Why do otters hold hands?" }, {}] });
  });

  it("SearXNG: format=json with the language (and country as its region), cut to count", async () => {
    const res = await search(configFor("searxng"), { query: "otter", count: 1, language: "de", country: "DE" });
    expect(res.isError).toBeFalsy();
    const [req] = fake.requestsFor("searxng");
    expect(req).toMatchObject({ method: "GET", path: "/search", query: { q: "otter", format: "json", language: "de-DE" } });
    expect(urls(res)).toEqual(["https://www.example.de/fischotter"]);
  });

  it("count defaults to tools.web.search.maxResults", async () => {
    await search(configFor("brave", { maxResults: 3 }), { query: "otter" });
    expect(fake.requestsFor("brave")[0]!.query.count).toBe("3");
  });
});

describe("web_search configuration", () => {
  it("fails naming the config keys and environment variables when nothing is configured", async () => {
    const res = await search({}, { query: "otters" });
    expect(res.isError).toBe(true);
    for (const hint of [
      "tools.web.search.provider",
      "tools.web.search.brave.apiKey",
      "BRAVE_API_KEY",
      "TAVILY_API_KEY",
      "PERPLEXITY_API_KEY",
      "SEARXNG_URL",
    ])
      expect(res.content).toContain(hint);
    expect(fake.requests).toHaveLength(0);
  });

  it("fails naming the provider's key when the chosen provider has none", async () => {
    const res = await search({ tools: { web: { search: { provider: "tavily" } } } }, { query: "otters" }, { env: { BRAVE_API_KEY: "x" } });
    expect(res.isError).toBe(true);
    expect(res.content).toContain("tools.web.search.tavily.apiKey (or TAVILY_API_KEY)");
  });

  it("takes keys and the SearXNG URL from the environment, and picks the first configured provider", async () => {
    const tavilyOnlyEnv = { TAVILY_API_KEY: fake.keys.tavily };
    const res = await search(
      { tools: { web: { search: { tavily: { baseUrl: fake.baseUrls.tavily } } } } },
      { query: "otter" },
      { env: tavilyOnlyEnv },
    );
    expect(res.isError).toBeFalsy();
    expect(res.details?.provider).toBe("tavily");
    expect(fake.requestsFor("tavily")[0]!.headers.authorization).toBe(`Bearer ${fake.keys.tavily}`);

    const sx = await search({}, { query: "otter" }, { env: { SEARXNG_URL: fake.baseUrls.searxng } });
    expect(sx.details?.provider).toBe("searxng");
    expect(fake.requestsFor("searxng")).toHaveLength(1);
  });

  it("rejects a bad country code before any request", async () => {
    const res = await search(configFor("brave"), { query: "otter", country: "USA" });
    expect(res.isError).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("web_search errors", () => {
  it("surfaces a wrong Brave key with Brave's message and the key to check", async () => {
    const raw = configFor("brave");
    (raw as { tools: { web: { search: { brave: { apiKey: string } } } } }).tools.web.search.brave.apiKey = "wrong";
    const res = await search(raw, { query: "otter" });
    expect(res.isError).toBe(true);
    expect(res.content).toContain("Brave Search answered HTTP 422: The provided subscription token is invalid.");
    expect(res.content).toContain("tools.web.search.brave.apiKey");
  });

  it("surfaces provider failures (rate limit, server error) with the provider's own message", async () => {
    fake.failNext("tavily", 429, "Rate limit exceeded, slow down.");
    const tavily = await search(configFor("tavily"), { query: "otter" });
    expect(tavily).toMatchObject({
      isError: true,
      content: expect.stringContaining("Tavily answered HTTP 429: Rate limit exceeded, slow down."),
    });

    fake.failNext("perplexity", 500, "upstream search failed");
    const pplx = await search(configFor("perplexity"), { query: "otter" });
    expect(pplx.content).toContain("Perplexity answered HTTP 500: upstream search failed");
  });

  it("explains a SearXNG instance without the JSON format", async () => {
    const noJson = await startFakeWebSearch({ searxngFormats: ["html"] });
    try {
      const res = await search(
        { tools: { web: { search: { provider: "searxng", searxng: { baseUrl: noJson.baseUrls.searxng } } } } },
        { query: "otter" },
      );
      expect(res.isError).toBe(true);
      expect(res.content).toContain("SearXNG answered HTTP 403");
      expect(res.content).toContain("search.formats");
    } finally {
      await noJson.close();
    }
  });

  it("gives up after tools.web.search.timeoutSeconds and says which key sets it", async () => {
    fake.hangNext("tavily");
    const res = await search(configFor("tavily", { timeoutSeconds: 0.2 }), { query: "otter" });
    expect(res).toMatchObject({
      isError: true,
      content: expect.stringContaining("Tavily did not answer within 0.2s (tools.web.search.timeoutSeconds)"),
    });
  });

  it("stops when the run is aborted", async () => {
    fake.hangNext("brave");
    const controller = new AbortController();
    const tool = createWebSearchTool({ env: {}, cache: createSearchCache() });
    const pending = tool.execute({ query: "otter" }, makeCtx(box, { config: makeConfig(configFor("brave")), signal: controller.signal }));
    await expect.poll(() => fake.requestsFor("brave").length).toBe(1);
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, content: expect.stringContaining("web_search was aborted") });
  });

  it("names the URL it could not reach", async () => {
    const gone = await startFakeWebSearch();
    await gone.close();
    const res = await search({ tools: { web: { search: { searxng: { baseUrl: gone.baseUrls.searxng } } } } }, { query: "otter" });
    expect(res.isError).toBe(true);
    expect(res.content).toContain(`Could not reach SearXNG at ${gone.baseUrls.searxng}`);
    expect(res.content).toContain("ECONNREFUSED");
  });

  it("does not cache failures", async () => {
    fake.failNext("brave", 503, "try later");
    const tool = createWebSearchTool({ env: {}, cache: createSearchCache() });
    const ctx = makeCtx(box, { config: makeConfig(configFor("brave")) });
    expect((await tool.execute({ query: "otter" }, ctx)).isError).toBe(true);
    expect((await tool.execute({ query: "otter" }, ctx)).isError).toBeFalsy();
    expect(fake.requestsFor("brave")).toHaveLength(2);
  });
});

describe("web_search cache", () => {
  it("answers an identical search from memory until the TTL passes; other parameters miss", async () => {
    let now = 1_000_000;
    const tool = createWebSearchTool({ env: {}, cache: createSearchCache({ now: () => now }) });
    const ctx = makeCtx(box, { config: makeConfig(configFor("brave", { cacheTtlMinutes: 5 })) });
    const first = await tool.execute({ query: "otter" }, ctx);
    const second = await tool.execute({ query: "otter" }, ctx);
    expect(second.details?.cached).toBe(true);
    expect(second.content).toContain("(cached)");
    expect(second.details?.results).toEqual(first.details?.results);
    expect(fake.requestsFor("brave")).toHaveLength(1);

    await tool.execute({ query: "otter", count: 2 }, ctx);
    await tool.execute({ query: "otter", language: "de" }, ctx);
    expect(fake.requestsFor("brave")).toHaveLength(3);

    now += 5 * 60_000;
    expect((await tool.execute({ query: "otter" }, ctx)).details?.cached).toBe(false);
    expect(fake.requestsFor("brave")).toHaveLength(4);
  });

  it("is off with cacheTtlMinutes 0", async () => {
    const tool = createWebSearchTool({ env: {}, cache: createSearchCache() });
    const ctx = makeCtx(box, { config: makeConfig(configFor("searxng", { cacheTtlMinutes: 0 })) });
    await tool.execute({ query: "otter" }, ctx);
    await tool.execute({ query: "otter" }, ctx);
    expect(fake.requestsFor("searxng")).toHaveLength(2);
  });
});
