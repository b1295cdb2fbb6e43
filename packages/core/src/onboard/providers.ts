// The model providers onboarding offers, and the one cheap call that proves a key works.
import { UserError } from "../config/index.js";

/** A provider choice in `openclaw onboard`. */
export interface ProviderPreset {
  /** The choice's name, and the provider id written under `models.providers` (except "custom"). */
  id: string;
  label: string;
  api: "openai-completions" | "anthropic-messages";
  /** Default base URL; "custom" has none and asks for one. */
  baseUrl?: string;
  /** The variable the key is usually kept in; onboarding offers a `${VAR}` reference when it is set. */
  apiKeyEnv?: string;
  /** A self-hosted server that needs no key. */
  keyless?: boolean;
  /** A built-in provider of core: no baseUrl needs to be written. */
  builtin?: boolean;
  /** Suggested when the provider has no model list (or an empty one). */
  defaultModel?: string;
}

/** OpenAI, Anthropic, and OpenAI-compatible endpoints; "custom" takes any base URL. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: "openai",
    label: "OpenAI",
    api: "openai-completions",
    baseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    builtin: true,
    defaultModel: "gpt-4o-mini",
  },
  {
    id: "anthropic",
    label: "Anthropic",
    api: "anthropic-messages",
    baseUrl: "https://api.anthropic.com",
    apiKeyEnv: "ANTHROPIC_API_KEY",
    builtin: true,
    defaultModel: "claude-sonnet-4-5",
  },
  {
    id: "openrouter",
    label: "OpenRouter",
    api: "openai-completions",
    baseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    builtin: true,
  },
  { id: "ollama", label: "Ollama (local)", api: "openai-completions", baseUrl: "http://127.0.0.1:11434/v1", keyless: true, builtin: true },
  {
    id: "deepseek",
    label: "DeepSeek",
    api: "openai-completions",
    baseUrl: "https://api.deepseek.com/v1",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    defaultModel: "deepseek-chat",
  },
  {
    id: "moonshot",
    label: "Moonshot (Kimi)",
    api: "openai-completions",
    baseUrl: "https://api.moonshot.ai/v1",
    apiKeyEnv: "MOONSHOT_API_KEY",
  },
  {
    id: "qwen",
    label: "Qwen (DashScope)",
    api: "openai-completions",
    baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
    apiKeyEnv: "DASHSCOPE_API_KEY",
    defaultModel: "qwen-plus",
  },
  { id: "custom", label: "Other OpenAI-compatible endpoint (base URL)", api: "openai-completions" },
];

/** The preset with this id, or undefined. */
export function providerPreset(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}

export interface ProviderCheckInput {
  api: ProviderPreset["api"];
  baseUrl: string;
  /** Omitted for keyless servers. */
  apiKey?: string;
  /** Default 15 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** What the provider answered: the ids of the models it lists (may be empty). */
export interface ProviderCheckResult {
  models: string[];
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** The model-list URL: `<baseUrl>/models` (OpenAI style) or `<baseUrl>/v1/models` (Anthropic). */
export function modelsUrl(api: ProviderPreset["api"], baseUrl: string): string {
  const base = trimSlash(baseUrl);
  return api === "anthropic-messages" && !/\/v1$/.test(base) ? `${base}/v1/models` : `${base}/models`;
}

/**
 * Verifies the key with one cheap, free call: `GET <models URL>`. Resolves with the listed model
 * ids. Throws a `UserError` saying what to fix: 401/403 (the key is refused), 404 or a non-JSON
 * answer (the base URL is probably wrong, e.g. missing `/v1`), or no answer at all.
 */
export async function checkProvider(input: ProviderCheckInput): Promise<ProviderCheckResult> {
  const url = modelsUrl(input.api, input.baseUrl);
  const headers: Record<string, string> = { accept: "application/json" };
  if (input.api === "anthropic-messages") {
    headers["anthropic-version"] = "2023-06-01";
    if (input.apiKey) headers["x-api-key"] = input.apiKey;
  } else if (input.apiKey) {
    headers.authorization = `Bearer ${input.apiKey}`;
  }
  let response: Response;
  try {
    response = await (input.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(input.timeoutMs ?? 15_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
    throw new UserError(`Could not reach ${url} (${reason}): check the base URL, and that the server is running.`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new UserError(
      `${url} refused the API key (HTTP ${response.status}): check the key, or create a new one in the provider's console.`,
    );
  }
  if (response.status === 404) {
    throw new UserError(`${url} does not exist (HTTP 404): the base URL is probably wrong (OpenAI-compatible URLs usually end in /v1).`);
  }
  if (!response.ok) {
    throw new UserError(`${url} answered HTTP ${response.status}: check the base URL and the key, or try again later.`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new UserError(
      `${url} did not answer with JSON: the base URL is probably not an API endpoint (OpenAI-compatible URLs usually end in /v1).`,
    );
  }
  const data = (body as { data?: unknown }).data;
  const models = Array.isArray(data)
    ? data
        .map((m) => (m && typeof m === "object" ? (m as { id?: unknown }).id : undefined))
        .filter((id): id is string => typeof id === "string")
    : [];
  return { models: [...new Set(models)].sort() };
}
