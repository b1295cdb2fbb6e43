import { z } from "zod";

const providerModelSchema = z.strictObject({
  id: z.string().min(1).describe("Model id as the provider names it."),
  name: z.string().optional().describe("Display name."),
  contextWindow: z.int().positive().optional().describe("Context window in tokens."),
  maxTokens: z.int().positive().optional().describe("Most output tokens per call."),
  reasoning: z.boolean().optional().describe("The model reasons before answering."),
  input: z
    .array(z.enum(["text", "image"]))
    .optional()
    .describe(
      'What the model accepts: ["text"] (default) or ["text", "image"]. With "image", tool results that carry images (browser screenshots) are sent to the model as images; otherwise it gets their text only (the saved file\'s path).',
    ),
});

/** `models`: model providers. */
export const modelsSchema = z
  .strictObject({
    mode: z
      .enum(["merge", "replace"])
      .default("merge")
      .describe('"merge" (default) adds these providers to the built-in ones; "replace" uses only these.'),
    providers: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/i, "provider ids use letters, digits, '.', '-' and '_'"),
        z.strictObject({
          api: z
            .enum(["openai-completions", "anthropic-messages"])
            .optional()
            .describe(
              'Wire protocol: "openai-completions" (OpenAI, OpenRouter, Ollama, vLLM, LM Studio, llama.cpp…) or "anthropic-messages" (needs the @openclaw/provider-anthropic package installed next to OpenClaw). Default: the built-in provider\'s own protocol, else "openai-completions".',
            ),
          baseUrl: z.url().optional().describe("API base URL (default: the provider's public endpoint)."),
          apiKey: z
            .string()
            .optional()
            .describe(
              "API key; prefer ${ENV_VAR} substitution. Default: the built-in provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY); a provider with its own baseUrl never gets a key from the environment, so your OpenAI key is not sent to third-party hosts.",
            ),
          headers: z.record(z.string(), z.string()).optional().describe("Extra HTTP headers on every request."),
          timeoutSeconds: z.int().positive().optional().describe("Request timeout."),
          models: z.array(providerModelSchema).default([]).describe("Models this provider serves."),
        }),
      )
      .optional()
      .describe("Custom or overridden providers keyed by id (the part before the first '/' in a model ref)."),
  })
  .prefault({})
  .describe("Model providers.");
