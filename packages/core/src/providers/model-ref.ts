import { UserError } from "../config/index.js";
import type { ModelSelectionInput, ModelsConfigView } from "./config-view.js";
import { isProviderInPlay } from "./registry.js";

/** A model ref split on its first "/"; `provider` is undefined for a bare id or alias. */
export interface ParsedModelRef {
  provider?: string;
  model: string;
}

/** A model ref with its provider settled. */
export interface ResolvedModelRef {
  provider: string;
  model: string;
  /** "provider/model". */
  ref: string;
  /**
   * How a bare id was settled ("explicit" when the ref named its provider); "first-configured"
   * when a stale configured default was replaced by the first configured provider's first model.
   */
  via: "explicit" | "alias" | "provider-match" | "default" | "first-configured";
  /** The alias the ref used, when it was one. */
  alias?: string;
}

/** One model to try, in order; see {@link resolveModelSelection}. */
export interface ModelCandidate {
  provider: string;
  model: string;
  /** "provider/model". */
  ref: string;
  /** Its alias from `agents.defaults.models`, if any. */
  alias?: string;
  /** Extra request parameters from `agents.defaults.models[ref].params`. */
  params?: Record<string, unknown>;
}

/**
 * Splits a model ref on the FIRST "/": "openrouter/moonshotai/kimi-k2" -> provider "openrouter",
 * model "moonshotai/kimi-k2"; "gpt-4o" -> no provider. Whitespace around the ref is ignored.
 * Throws a UserError for an empty ref or an empty provider or model part.
 */
export function parseModelRef(ref: string): ParsedModelRef {
  const trimmed = ref.trim();
  const slash = trimmed.indexOf("/");
  if (trimmed === "" || slash === 0 || slash === trimmed.length - 1) {
    throw new UserError(`"${ref}" is not a model ref; use "provider/model" (e.g. "openai/gpt-4o") or an alias from agents.defaults.models`);
  }
  if (slash < 0) return { model: trimmed };
  return { provider: trimmed.slice(0, slash), model: trimmed.slice(slash + 1) };
}

function findAlias(name: string, config: ModelsConfigView): { key: string; alias: string } | undefined {
  const entries = Object.entries(config.agents?.defaults?.models ?? {}).filter(([, v]) => typeof v?.alias === "string");
  const exact = entries.find(([, v]) => v.alias === name);
  const match = exact ?? entries.find(([, v]) => v.alias?.toLowerCase() === name.toLowerCase());
  return match ? { key: match[0], alias: match[1].alias as string } : undefined;
}

function providersListing(config: ModelsConfigView, model: string): string[] {
  return Object.entries(config.models?.providers ?? {})
    .filter(([, p]) => (p?.models ?? []).some((m) => m?.id === model))
    .map(([id]) => id);
}

function primaryRef(selection: ModelSelectionInput | undefined): string | undefined {
  if (typeof selection === "string") return selection;
  return selection?.primary;
}

/** Resolves a bare id without the default-provider step (used to find the default provider itself). */
function resolveWithoutDefault(ref: string, config: ModelsConfigView, depth: number): ResolvedModelRef | undefined {
  const parsed = parseModelRef(ref);
  if (parsed.provider !== undefined)
    return { provider: parsed.provider, model: parsed.model, ref: `${parsed.provider}/${parsed.model}`, via: "explicit" };
  const alias = depth < 4 ? findAlias(parsed.model, config) : undefined;
  if (alias) {
    const target = resolveWithoutDefault(alias.key, config, depth + 1);
    if (target) return { ...target, via: "alias", alias: alias.alias };
  }
  const owners = providersListing(config, parsed.model);
  if (owners.length === 1) {
    const provider = owners[0] as string;
    return { provider, model: parsed.model, ref: `${provider}/${parsed.model}`, via: "provider-match" };
  }
  return undefined;
}

export interface ResolveModelOptions {
  /** Use this agent's primary model (instead of agents.defaults.model) to find the default provider. */
  agentId?: string;
}

function agentEntry(config: ModelsConfigView, agentId: string | undefined) {
  if (!agentId) return undefined;
  const entries = config.agents?.entries ?? {};
  const key = Object.keys(entries).find((k) => k.toLowerCase() === agentId.toLowerCase());
  return key === undefined ? undefined : entries[key];
}

/**
 * The provider bare model ids fall back to: the provider of the configured primary model (the
 * agent's when `agentId` is given, else agents.defaults.model); if that provider is no longer
 * in play, the first provider under models.providers. Without a primary: "openai" (or, when
 * `models.mode` is "replace" and openai is not configured, the first configured provider).
 */
export function defaultProviderId(config: ModelsConfigView, options: ResolveModelOptions = {}): string {
  const primary = primaryRef(agentEntry(config, options.agentId)?.model) ?? primaryRef(config.agents?.defaults?.model);
  let fromPrimary: string | undefined;
  try {
    fromPrimary = primary ? resolveWithoutDefault(primary, config, 0)?.provider : undefined;
  } catch {
    fromPrimary = undefined;
  }
  const firstConfigured = Object.keys(config.models?.providers ?? {})[0];
  if (fromPrimary) return isProviderInPlay(config, fromPrimary) ? fromPrimary : (firstConfigured ?? fromPrimary);
  return isProviderInPlay(config, "openai") ? "openai" : (firstConfigured ?? "openai");
}

/**
 * Resolves a model ref. "provider/model" is taken as is (split on the first "/"). A bare id is
 * tried, in order, as: an alias from `agents.defaults.models[*].alias` (exact, then
 * case-insensitive); a model id listed by exactly one provider under
 * `models.providers.<id>.models`; a model of the default provider (see {@link defaultProviderId}).
 * Throws a UserError for a malformed ref.
 */
export function resolveModelRef(ref: string, config: ModelsConfigView, options: ResolveModelOptions = {}): ResolvedModelRef {
  const settled = resolveWithoutDefault(ref, config, 0);
  if (settled) return settled;
  const { model } = parseModelRef(ref);
  const provider = defaultProviderId(config, options);
  return { provider, model, ref: `${provider}/${model}`, via: "default" };
}

/** The first model of the first provider under `models.providers` that lists one. */
function firstConfiguredModel(config: ModelsConfigView): ResolvedModelRef | undefined {
  for (const [provider, entry] of Object.entries(config.models?.providers ?? {})) {
    const model = (entry?.models ?? []).find((m) => typeof m?.id === "string" && m.id !== "")?.id;
    if (model) return { provider, model, ref: `${provider}/${model}`, via: "first-configured" };
  }
  return undefined;
}

/**
 * A configured default model no provider in play serves any more: its provider is gone (removed
 * from `models.providers`, or a built-in dropped by `models.mode: "replace"`), or it is a bare id
 * only the default-provider step could settle while that provider is not one of
 * `models.providers` listing models, or lists models but not this one.
 */
function isStaleDefault(resolved: ResolvedModelRef, config: ModelsConfigView): boolean {
  const provider = resolved.provider.toLowerCase();
  if (!isProviderInPlay(config, provider)) return true;
  if (resolved.via !== "default") return false;
  const entry = Object.entries(config.models?.providers ?? {}).find(([id]) => id.toLowerCase() === provider)?.[1];
  const listed = entry?.models ?? [];
  if (entry && listed.length === 0) return false; // a configured provider that lists nothing may serve anything
  return !listed.some((m) => m?.id === resolved.model);
}

function toCandidate(resolved: ResolvedModelRef, config: ModelsConfigView): ModelCandidate {
  const known = config.agents?.defaults?.models ?? {};
  const entry = known[resolved.ref];
  const alias = resolved.alias ?? entry?.alias;
  return {
    provider: resolved.provider,
    model: resolved.model,
    ref: resolved.ref,
    ...(alias ? { alias } : {}),
    ...(entry?.params ? { params: { ...entry.params } } : {}),
  };
}

/**
 * The models to try for an agent, in order, deduplicated by "provider/model". The agent entry's
 * `model` wins over `agents.defaults.model`: a string there is strict (that model only, no
 * fallbacks); `{primary, fallbacks}` gives the primary then the fallbacks (an entry without
 * `fallbacks` inherits those of agents.defaults.model; `fallbacks: []` means none). Returns an
 * empty list when no model is configured anywhere (see {@link noModelConfiguredMessage}).
 * A stale primary (its provider is gone, or a bare id no configured provider lists, which would
 * otherwise go to the default provider, e.g. `openai`, and fail there) is replaced by the first
 * configured provider's first model under `models.providers`; without one it is kept as is.
 * Throws a UserError naming the config key for a malformed ref.
 */
export function resolveModelSelection(config: ModelsConfigView, agentId?: string): ModelCandidate[] {
  const entry = agentEntry(config, agentId);
  const defaults = config.agents?.defaults?.model;
  const entryKey = agentId ? `agents.entries.${agentId}.model` : "agents.defaults.model";
  let refs: Array<{ ref: string; key: string }>;
  if (typeof entry?.model === "string") refs = [{ ref: entry.model, key: entryKey }];
  else if (entry?.model) {
    const inherited = entry.model.fallbacks === undefined && typeof defaults === "object" ? defaults.fallbacks : undefined;
    const fallbackKey = inherited ? "agents.defaults.model.fallbacks" : `${entryKey}.fallbacks`;
    refs = [
      { ref: entry.model.primary, key: `${entryKey}.primary` },
      ...(entry.model.fallbacks ?? inherited ?? []).map((ref, i) => ({ ref, key: `${fallbackKey}[${i}]` })),
    ];
  } else if (typeof defaults === "string") refs = [{ ref: defaults, key: "agents.defaults.model" }];
  else if (defaults) {
    refs = [
      { ref: defaults.primary, key: "agents.defaults.model.primary" },
      ...(defaults.fallbacks ?? []).map((ref, i) => ({ ref, key: `agents.defaults.model.fallbacks[${i}]` })),
    ];
  } else refs = [];

  const seen = new Set<string>();
  const out: ModelCandidate[] = [];
  for (const [index, { ref, key }] of refs.entries()) {
    let resolved: ResolvedModelRef;
    try {
      resolved = resolveModelRef(ref, config, agentId ? { agentId } : {});
    } catch (err) {
      throw new UserError(`${key}: ${(err as Error).message}`);
    }
    if (index === 0 && isStaleDefault(resolved, config)) resolved = firstConfiguredModel(config) ?? resolved;
    if (seen.has(resolved.ref)) continue;
    seen.add(resolved.ref);
    out.push(toCandidate(resolved, config));
  }
  return out;
}

/**
 * The answer to give when no model is configured: what is missing and the commands that fix it
 * (a cloud model with its key variable, or a local server via models.providers).
 */
export function noModelConfiguredMessage(configPath: string): string {
  return [
    `No model is configured, so there is nothing to answer with (config: ${configPath}).`,
    "Pick one, for example:",
    "  openclaw config set agents.defaults.model openai/gpt-4o                 and set OPENAI_API_KEY",
    "  openclaw config set agents.defaults.model anthropic/claude-sonnet-5-5   and set ANTHROPIC_API_KEY",
    "  openclaw config set agents.defaults.model openrouter/moonshotai/kimi-k2 and set OPENROUTER_API_KEY",
    "Or use a local server with no key: `openclaw config set agents.defaults.model ollama/llama3.1`",
    "(also lmstudio/<model>, vllm/<model>), or add any OpenAI-compatible endpoint under",
    'models.providers.<id> = { "api": "openai-completions", "baseUrl": "http://127.0.0.1:8080/v1", "models": [{ "id": "<model>" }] }',
    "and set agents.defaults.model to <id>/<model>.",
  ].join("\n");
}
