// How many tokens a model's prompt may hold: the configured `contextWindow`, else a known
// model's published size, else a conservative default.
import type { OpenClawConfig } from "../../config/index.js";

/** Used for a model that is neither configured with a `contextWindow` nor in {@link KNOWN_CONTEXT_WINDOWS}. */
export const DEFAULT_CONTEXT_WINDOW = 16_384;

/**
 * Published context windows by model-id prefix (lowercase; the longest matching prefix wins).
 * Ids are matched after the last "/" too, so `openrouter/anthropic/claude-…` finds `claude-`.
 */
export const KNOWN_CONTEXT_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ["gpt-5", 400_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-3.5-turbo", 16_385],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
  ["claude-", 200_000],
  ["gemini-", 1_048_576],
  ["grok-4", 256_000],
  ["grok-", 131_072],
  ["deepseek-", 128_000],
  ["mistral-large", 131_072],
  ["llama3.1", 131_072],
  ["llama3.2", 131_072],
  ["llama3.3", 131_072],
  ["llama-3.1", 131_072],
  ["llama-3.3", 131_072],
  ["llama3", 8_192],
  ["qwen2.5", 32_768],
];

/** The published window of a model id from {@link KNOWN_CONTEXT_WINDOWS}; undefined when none matches. */
export function knownContextWindow(modelId: string): number | undefined {
  const ids = [modelId.toLowerCase()];
  const last = ids[0]!.split("/").pop()!;
  if (last !== ids[0]) ids.push(last);
  let best: readonly [string, number] | undefined;
  for (const id of ids) {
    for (const entry of KNOWN_CONTEXT_WINDOWS) {
      if (id.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
    }
  }
  return best?.[1];
}

/**
 * The context window of a model ref ("provider/model"): `models.providers.<provider>.models[].contextWindow`
 * when configured, else the known window of the model id, else {@link DEFAULT_CONTEXT_WINDOW}.
 */
export function resolveContextWindow(config: OpenClawConfig, ref: string | undefined): number {
  if (!ref) return DEFAULT_CONTEXT_WINDOW;
  const slash = ref.indexOf("/");
  const providerId = slash < 0 ? "" : ref.slice(0, slash);
  const modelId = slash < 0 ? ref : ref.slice(slash + 1);
  const configured = config.models?.providers?.[providerId]?.models?.find((m) => m?.id === modelId)?.contextWindow;
  return configured ?? knownContextWindow(modelId) ?? DEFAULT_CONTEXT_WINDOW;
}
