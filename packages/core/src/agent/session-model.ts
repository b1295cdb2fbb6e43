// The per-session model override a person sets with `/model <ref>`: validated against the
// configured providers, stored on the session entry (it survives `/new`), used strictly.
import type { OpenClawConfig } from "../config/index.js";
import { listProviderIds, resolveModelRef, resolveModelSelection, type ModelCandidate } from "../providers/index.js";
import type { SessionEntry } from "../sessions/index.js";

/** The model a session runs on and where that choice comes from. */
export interface SessionModel {
  /** "provider/model"; undefined when no model is configured anywhere. */
  ref: string | undefined;
  /** True when `/model` chose it for this session; false for the configured default. */
  override: boolean;
  /** Configured context window of that model (`models.providers.<id>.models[].contextWindow`), if any. */
  contextWindow?: number;
}

/** The `/model` choice stored on an entry, as "provider/model"; undefined when there is none. */
export function overrideOf(entry: SessionEntry | undefined): string | undefined {
  if (!entry?.modelOverride || entry.modelOverrideSource !== "user") return undefined;
  return entry.providerOverride ? `${entry.providerOverride}/${entry.modelOverride}` : entry.modelOverride;
}

/**
 * The models to try for a session: the `/model` override alone (a user's choice is strict: no
 * fallbacks), else the agent's configured selection.
 */
export function sessionCandidates(config: OpenClawConfig, agentId: string, entry: SessionEntry | undefined): ModelCandidate[] {
  const chosen = overrideOf(entry);
  if (!chosen) return resolveModelSelection(config, agentId);
  try {
    return [validateModelChoice(config, agentId, chosen)];
  } catch {
    // The provider left the config since: back to the configured models.
    return resolveModelSelection(config, agentId);
  }
}

/** The configured context window of a model ref, when its provider lists the model with one. */
export function contextWindowOf(config: OpenClawConfig, ref: string | undefined): number | undefined {
  if (!ref) return undefined;
  const slash = ref.indexOf("/");
  const provider = config.models?.providers?.[ref.slice(0, slash)];
  return provider?.models?.find((m) => m?.id === ref.slice(slash + 1))?.contextWindow;
}

/**
 * Resolves and checks a `/model` argument (a "provider/model" ref or an alias / bare id, resolved
 * as in the config). Throws an Error with a message for the chat when the provider is not
 * configured, or when the provider lists its models under `models.providers.<id>.models` and
 * this is not one of them.
 */
export function validateModelChoice(config: OpenClawConfig, agentId: string, raw: string): ModelCandidate {
  const resolved = resolveModelRef(raw, config, { agentId });
  const known = listProviderIds(config);
  const provider = known.find((id) => id.toLowerCase() === resolved.provider.toLowerCase());
  if (!provider) {
    throw new Error(`"${resolved.provider}" is not a configured provider (known: ${known.join(", ")}); add it under models.providers.`);
  }
  const listed = (config.models?.providers?.[provider]?.models ?? []).map((m) => m.id);
  if (listed.length > 0 && !listed.includes(resolved.model)) {
    throw new Error(`${provider} has no model "${resolved.model}" in models.providers.${provider}.models (it lists ${listed.join(", ")}).`);
  }
  const ref = `${provider}/${resolved.model}`;
  const params = config.agents.defaults.models?.[ref]?.params;
  return {
    provider,
    model: resolved.model,
    ref,
    ...(resolved.alias ? { alias: resolved.alias } : {}),
    ...(params ? { params: { ...params } } : {}),
  };
}
