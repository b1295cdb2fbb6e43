// Which provider packages the configured models need, and which of them are missing: for
// `openclaw doctor`, so a missing package shows before the first model call fails.
import { ANTHROPIC_CHECKOUT_FOLDER, ANTHROPIC_PROVIDER_PACKAGE } from "./anthropic-client.js";
import type { ModelsConfigView } from "./config-view.js";
import { resolveModelSelection } from "./model-ref.js";
import { isProviderPackageInstalled, providerPackageMessage } from "./provider-package.js";
import { resolveProviderConfig } from "./registry.js";
import type { ProviderApi } from "./types.js";

/** The package each wire protocol needs beside core, with its folder in this repository; none for those core speaks itself. */
export const PROVIDER_PACKAGES: Readonly<Partial<Record<ProviderApi, { packageName: string; checkoutFolder: string }>>> = Object.freeze({
  "anthropic-messages": { packageName: ANTHROPIC_PROVIDER_PACKAGE, checkoutFolder: ANTHROPIC_CHECKOUT_FOLDER },
});

export interface MissingProviderPackage {
  provider: string;
  api: ProviderApi;
  packageName: string;
  /** The model ref that uses the provider, e.g. "anthropic/claude-sonnet-4-5". */
  ref: string;
  /** What to tell the user: the config key, the file and the install command. */
  message: string;
}

/**
 * The provider packages that the models of `agents.defaults.model` and every
 * `agents.entries.<id>.model` (primary and fallbacks) need and that do not resolve from core,
 * one per provider. Providers no model uses are not checked (the built-in `anthropic` provider
 * exists in every config). A selection that does not resolve is skipped (config validation
 * reports it). `packages` replaces {@link PROVIDER_PACKAGES}.
 */
export function missingProviderPackages(
  config: ModelsConfigView,
  options: { configPath?: string; packages?: typeof PROVIDER_PACKAGES } = {},
): MissingProviderPackage[] {
  const packages = options.packages ?? PROVIDER_PACKAGES;
  const out: MissingProviderPackage[] = [];
  const checked = new Set<string>();
  for (const agentId of [undefined, ...Object.keys(config.agents?.entries ?? {})]) {
    let candidates: ReturnType<typeof resolveModelSelection>;
    try {
      candidates = resolveModelSelection(config, agentId);
    } catch {
      continue;
    }
    for (const candidate of candidates) {
      if (checked.has(candidate.provider)) continue;
      checked.add(candidate.provider);
      const api = resolveProviderConfig(config, candidate.provider, {})?.api;
      const needed = api ? packages[api] : undefined;
      if (!api || !needed || isProviderPackageInstalled(needed.packageName)) continue;
      out.push({
        provider: candidate.provider,
        api,
        packageName: needed.packageName,
        ref: candidate.ref,
        message: providerPackageMessage({
          ...needed,
          provider: candidate.provider,
          api,
          ...(options.configPath ? { configPath: options.configPath } : {}),
        }),
      });
    }
  }
  return out;
}
