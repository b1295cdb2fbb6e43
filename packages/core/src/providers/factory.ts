import { createAnthropicMessagesProvider } from "./anthropic-messages.js";
import type { ModelsConfigView } from "./config-view.js";
import { createOpenAICompletionsProvider } from "./openai-completions.js";
import { listProviderIds, resolveProviderConfig, type ProviderBuildOptions, type ResolvedProviderConfig } from "./registry.js";
import { ProviderError, type ModelProvider } from "./types.js";

/** Builds the provider for a resolved config, by its `api`. */
export function createProvider(cfg: ResolvedProviderConfig, options: ProviderBuildOptions = {}): ModelProvider {
  return cfg.api === "anthropic-messages" ? createAnthropicMessagesProvider(cfg, options) : createOpenAICompletionsProvider(cfg, options);
}

export interface ProviderFactoryOptions extends ProviderBuildOptions {
  /** Where API keys are read from. Default: process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Returns `createProvider` for {@link streamWithFallback}: builds (once per provider id, then
 * reuses, keeping HTTP connections warm) the provider a candidate names. An unknown provider id
 * throws a ProviderError of kind "unknown" that names the fix, so a fallback can still answer.
 */
export function createProviderFactory(
  config: ModelsConfigView,
  options: ProviderFactoryOptions = {},
): (candidate: { provider: string; model: string }) => ModelProvider {
  const cache = new Map<string, ModelProvider>();
  const env = options.env ?? process.env;
  const build: ProviderBuildOptions = options.configPath ? { configPath: options.configPath } : {};
  return (candidate) => {
    const cached = cache.get(candidate.provider);
    if (cached) return cached;
    const resolved = resolveProviderConfig(config, candidate.provider, env);
    if (!resolved) {
      const where = options.configPath ? ` to ${options.configPath}` : "";
      throw new ProviderError({
        kind: "unknown",
        message: `Unknown model provider "${candidate.provider}" (model ${candidate.provider}/${candidate.model}): add models.providers.${candidate.provider} {api, baseUrl, apiKey}${where}, or use one of: ${listProviderIds(config).join(", ")}.`,
        provider: candidate.provider,
        model: candidate.model,
      });
    }
    const provider = createProvider(resolved, build);
    cache.set(candidate.provider, provider);
    return provider;
  };
}
