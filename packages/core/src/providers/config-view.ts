// The slice of openclaw.json that providers and model resolution read. The validated
// `OpenClawConfig` fits it; so does raw parsed JSON, which is why every field is optional.
import type { ProviderApi } from "./types.js";

/** A model a provider serves, from `models.providers.<id>.models[]`. */
export interface ProviderModelInfo {
  id: string;
  name?: string;
  contextWindow?: number;
  maxTokens?: number;
  reasoning?: boolean;
  /** What the model accepts as input; default `["text"]`. `"image"` lets tool results carry images. */
  input?: Array<"text" | "image">;
}

/** `models.providers.<id>` as written in the config. */
export interface ProviderConfigInput {
  api?: ProviderApi;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  timeoutSeconds?: number;
  models?: ProviderModelInfo[];
}

/** `agents.defaults.model` / `agents.entries.<id>.model`: a ref (strict) or primary with fallbacks. */
export type ModelSelectionInput = string | { primary: string; fallbacks?: string[] };

export interface ModelsConfigView {
  models?: {
    mode?: "merge" | "replace";
    providers?: Record<string, ProviderConfigInput>;
  };
  agents?: {
    defaults?: {
      model?: ModelSelectionInput;
      models?: Record<string, { alias?: string; params?: Record<string, unknown> }>;
    };
    entries?: Record<string, { model?: ModelSelectionInput }>;
  };
}
