import { z } from "zod";

const apiKey = (envVar: string) =>
  z.string().min(1).optional().describe(`API key; prefer \${ENV_VAR} substitution. Default: the ${envVar} environment variable.`);

/** `tools.web.search`: the web_search tool and its providers. */
export const webSearchSchema = z
  .strictObject({
    provider: z
      .enum(["brave", "tavily", "perplexity", "searxng"])
      .optional()
      .describe(
        "Search provider. Default: the first of brave, tavily, perplexity, searxng that has a key (or, for searxng, a URL) in the config or the environment.",
      ),
    maxResults: z.int().min(1).max(20).default(5).describe("Results returned when the call gives no count (default 5, at most 20)."),
    timeoutSeconds: z.number().positive().default(30).describe("Time allowed for one search request (default 30)."),
    cacheTtlMinutes: z
      .number()
      .min(0)
      .default(5)
      .describe(
        "How long an identical search (provider, query, count, country, language) is answered from memory; 0 turns the cache off (default 5).",
      ),
    brave: z
      .strictObject({
        apiKey: apiKey("BRAVE_API_KEY"),
        baseUrl: z.url().optional().describe("API base URL (default https://api.search.brave.com)."),
      })
      .optional()
      .describe("Brave Search API."),
    tavily: z
      .strictObject({
        apiKey: apiKey("TAVILY_API_KEY"),
        baseUrl: z.url().optional().describe("API base URL (default https://api.tavily.com)."),
      })
      .optional()
      .describe("Tavily search API."),
    perplexity: z
      .strictObject({
        apiKey: apiKey("PERPLEXITY_API_KEY"),
        baseUrl: z
          .url()
          .optional()
          .describe(
            "Base URL of the chat-completions API (default https://api.perplexity.ai); any OpenAI-compatible server with a search model works, e.g. https://openrouter.ai/api/v1.",
          ),
        model: z.string().min(1).default("sonar").describe('Search model (default "sonar"; "perplexity/sonar" on OpenRouter).'),
      })
      .optional()
      .describe("Perplexity Sonar, or another OpenAI-compatible search model: answers with cited sources."),
    searxng: z
      .strictObject({
        baseUrl: z
          .url()
          .optional()
          .describe(
            "URL of your SearXNG instance, which must allow the JSON format (search.formats in settings.yml). Default: the SEARXNG_URL environment variable.",
          ),
      })
      .optional()
      .describe("A self-hosted SearXNG metasearch instance."),
  })
  .prefault({})
  .describe("The web_search tool.");
