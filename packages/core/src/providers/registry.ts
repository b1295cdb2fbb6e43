import type { ModelsConfigView, ProviderConfigInput, ProviderModelInfo } from "./config-view.js";
import type { ProviderApi } from "./types.js";

export interface BuiltinProvider {
  api: ProviderApi;
  baseUrl: string;
  /** The environment variable holding the key; undefined for keyless local servers. */
  apiKeyEnv?: string;
  /** A self-hosted server (longer idle timeout, no key needed). */
  local: boolean;
}

/** Providers available without any config when `models.mode` is "merge" (the default). */
export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = Object.freeze({
  openai: { api: "openai-completions", baseUrl: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY", local: false },
  anthropic: { api: "anthropic-messages", baseUrl: "https://api.anthropic.com", apiKeyEnv: "ANTHROPIC_API_KEY", local: false },
  openrouter: { api: "openai-completions", baseUrl: "https://openrouter.ai/api/v1", apiKeyEnv: "OPENROUTER_API_KEY", local: false },
  ollama: { api: "openai-completions", baseUrl: "http://127.0.0.1:11434/v1", local: true },
  lmstudio: { api: "openai-completions", baseUrl: "http://127.0.0.1:1234/v1", local: true },
  vllm: { api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1", local: true },
});

/** Public endpoints and key variables per wire protocol, for custom providers without a baseUrl. */
const API_DEFAULTS: Record<ProviderApi, { baseUrl: string; apiKeyEnv: string }> = {
  "openai-completions": { baseUrl: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" },
  "anthropic-messages": { baseUrl: "https://api.anthropic.com", apiKeyEnv: "ANTHROPIC_API_KEY" },
};

/** Sent as the key to servers that need none (Ollama, LM Studio, vLLM, llama.cpp…). */
export const PLACEHOLDER_API_KEY = "openclaw-no-key";

export interface ProviderBuildOptions {
  /** The config file, named in the missing-key message. */
  configPath?: string;
}

/** Idle timeout for cloud endpoints (no byte for this long ends the call). */
export const CLOUD_TIMEOUT_MS = 120_000;
/** Idle timeout for self-hosted endpoints, which may load a model first. */
export const LOCAL_TIMEOUT_MS = 300_000;

/** A provider with every default applied, ready to build a client from. */
export interface ResolvedProviderConfig {
  id: string;
  api: ProviderApi;
  baseUrl: string;
  /** From `models.providers.<id>.apiKey`, else the provider's environment variable; undefined when neither is set. */
  apiKey?: string;
  apiKeySource: "config" | "env" | "none";
  /** The environment variable consulted for the key, e.g. "OPENAI_API_KEY". */
  apiKeyEnv?: string;
  /** False for local and custom-endpoint providers, which get a placeholder key when none is set. */
  requiresApiKey: boolean;
  headers: Record<string, string>;
  /** Longest wait for the response to start and between streamed chunks. */
  timeoutMs: number;
  models: ProviderModelInfo[];
  builtin: boolean;
  local: boolean;
}

/** True for loopback, private-network and `.local` hosts (self-hosted servers). */
export function isLocalBaseUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host === "::1") return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!v4) return host.startsWith("fc") || host.startsWith("fd");
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || a === 0;
}

function configuredProviders(config: ModelsConfigView): Record<string, ProviderConfigInput> {
  return config.models?.providers ?? {};
}

function findConfigured(config: ModelsConfigView, id: string): [string, ProviderConfigInput] | undefined {
  const providers = configuredProviders(config);
  if (Object.hasOwn(providers, id)) return [id, providers[id] as ProviderConfigInput];
  const lower = id.toLowerCase();
  const key = Object.keys(providers).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : [key, providers[key] as ProviderConfigInput];
}

/** True when `id` (in any case) is one of {@link listProviderIds}, without listing them (asked every turn). */
export function isProviderInPlay(config: ModelsConfigView, id: string): boolean {
  // The built-in ids are lower case.
  if (config.models?.mode !== "replace" && Object.hasOwn(BUILTIN_PROVIDERS, id.toLowerCase())) return true;
  return findConfigured(config, id) !== undefined;
}

/** Ids of every provider in play: built-ins (unless `models.mode` is "replace") and configured ones. */
export function listProviderIds(config: ModelsConfigView): string[] {
  const ids = new Set<string>();
  if (config.models?.mode !== "replace") for (const id of Object.keys(BUILTIN_PROVIDERS)) ids.add(id);
  for (const id of Object.keys(configuredProviders(config))) ids.add(id);
  return [...ids];
}

/**
 * Resolves a provider id against the config: `models.providers.<id>` overrides or extends the
 * built-in of the same id (unless `models.mode` is "replace", which drops the built-ins).
 * Returns undefined for an unknown id. Defaults: `api` from the built-in, else
 * "openai-completions"; `baseUrl` from the built-in, else the api's public endpoint; key from
 * config, else the built-in's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY),
 * else, for a custom provider without a baseUrl, the api's variable. A custom provider with its
 * own baseUrl never receives a key from the environment (no key leaks to third-party hosts).
 * Idle timeout: `timeoutSeconds`, else 300 s for local servers and 120 s for cloud ones.
 */
export function resolveProviderConfig(
  config: ModelsConfigView,
  id: string,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedProviderConfig | undefined {
  const found = findConfigured(config, id);
  const builtinId = id.toLowerCase();
  const builtin =
    config.models?.mode !== "replace" && Object.hasOwn(BUILTIN_PROVIDERS, builtinId) ? BUILTIN_PROVIDERS[builtinId] : undefined;
  if (!found && !builtin) return undefined;
  const [configId, input] = found ?? [builtinId, {} as ProviderConfigInput];

  // The schema defaults `api` to "openai-completions"; for the built-in anthropic provider
  // without its own baseUrl that default can only be an accident, so the built-in api wins.
  let api: ProviderApi = input.api ?? builtin?.api ?? "openai-completions";
  if (builtin && !input.baseUrl && input.api === "openai-completions" && builtin.api === "anthropic-messages") api = builtin.api;

  const baseUrl = input.baseUrl ?? builtin?.baseUrl ?? API_DEFAULTS[api].baseUrl;
  const local = builtin?.local === true || isLocalBaseUrl(baseUrl);
  const apiKeyEnv = builtin ? builtin.apiKeyEnv : input.baseUrl ? undefined : API_DEFAULTS[api].apiKeyEnv;
  const requiresApiKey = apiKeyEnv !== undefined;

  let apiKey: string | undefined;
  let apiKeySource: ResolvedProviderConfig["apiKeySource"] = "none";
  if (input.apiKey) {
    apiKey = input.apiKey;
    apiKeySource = "config";
  } else if (apiKeyEnv && env[apiKeyEnv]) {
    apiKey = env[apiKeyEnv];
    apiKeySource = "env";
  }

  return {
    id: configId,
    api,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    ...(apiKey !== undefined ? { apiKey } : {}),
    apiKeySource,
    ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
    requiresApiKey,
    headers: { ...(input.headers ?? {}) },
    timeoutMs: input.timeoutSeconds ? input.timeoutSeconds * 1000 : local ? LOCAL_TIMEOUT_MS : CLOUD_TIMEOUT_MS,
    models: [...(input.models ?? [])],
    builtin: builtin !== undefined,
    local,
  };
}

/** Every provider in play, resolved (see {@link resolveProviderConfig}). */
export function listProviderConfigs(config: ModelsConfigView, env: NodeJS.ProcessEnv = process.env): ResolvedProviderConfig[] {
  return listProviderIds(config).flatMap((id) => resolveProviderConfig(config, id, env) ?? []);
}
