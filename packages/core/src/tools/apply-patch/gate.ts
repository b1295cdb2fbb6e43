import type { OpenClawConfig } from "../../config/index.js";
import { matchesGlob } from "../glob.js";

/** Model ids that get apply_patch by default: OpenAI's GPT, o-series and Codex families. */
const OPENAI_MODEL_ID = /^(gpt-|o\d|codex)/i;

/**
 * Splits a model ref on the first `/`: `openrouter/openai/gpt-5` -> provider `openrouter`, model
 * `openai/gpt-5`. A ref without `/` is a bare model id.
 */
function splitRef(ref: string): { provider: string; model: string } {
  const at = ref.indexOf("/");
  return at === -1 ? { provider: "", model: ref } : { provider: ref.slice(0, at), model: ref.slice(at + 1) };
}

/**
 * Default apply_patch audience when `tools.exec.applyPatch.allowModels` is unset: provider
 * `openai` (or `openai-*`, e.g. `openai-codex`), or a model whose last path segment starts with
 * `gpt-`, `o<digit>` or `codex` (so `openrouter/openai/gpt-5` and `azure/o3-mini` qualify).
 */
export function isOpenAiModel(modelRef: string): boolean {
  const { provider, model } = splitRef(modelRef);
  if (/^openai(-|$)/i.test(provider)) return true;
  const last = model.split("/").pop() ?? "";
  return OPENAI_MODEL_ID.test(last);
}

/**
 * Whether apply_patch is offered to `modelRef`.
 * - `tools.exec.applyPatch.enabled: false` turns it off for everyone (default true).
 * - `allowModels` patterns (case-insensitive, `*` wildcards): one with a `/` matches the whole
 *   ref (`openai/*`, `ollama/qwen*`); one without matches the model id or its last segment (`gpt-5*`). `["*"]` allows
 *   every model, `[]` none. Unset: {@link isOpenAiModel}.
 * - Without a model ref only the pattern `*` allows it.
 */
export function isApplyPatchAllowed(config: OpenClawConfig | undefined, modelRef: string | undefined): boolean {
  const settings = config?.tools?.exec?.applyPatch;
  if (settings?.enabled === false) return false;
  const patterns = settings?.allowModels;
  if (modelRef === undefined || modelRef.trim() === "") return patterns?.some((p) => p.trim() === "*") ?? false;
  if (patterns === undefined) return isOpenAiModel(modelRef);
  const { model } = splitRef(modelRef);
  const last = model.split("/").pop() ?? model;
  return patterns.some((p) => (p.includes("/") ? matchesGlob(p, modelRef) : matchesGlob(p, model) || matchesGlob(p, last)));
}

/** `tools.exec.applyPatch.workspaceOnly` (default true). */
export function applyPatchWorkspaceOnly(config: OpenClawConfig | undefined): boolean {
  return config?.tools?.exec?.applyPatch?.workspaceOnly ?? true;
}
