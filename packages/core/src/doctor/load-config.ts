import { validateConfig, createConfigRegistry, type OpenClawConfig } from "../config/index.js";
import { loadConfigWithPlugins } from "../plugins/index.js";
import type { DoctorContext } from "./types.js";

type DoctorConfig = { config: OpenClawConfig; usedDefaults: boolean };

/** One load per doctor run: the steps after the config step share it (only the config step writes the file). */
const loaded = new WeakMap<DoctorContext, Promise<DoctorConfig>>();

/**
 * The config later doctor steps work with: the validated file, or the safe defaults when the
 * file is still invalid (the config step has already reported why). Loaded once per doctor run
 * (`ctx`, so a second run, e.g. the fix after an interactive report, reads the file again); call
 * it only from steps that run after the config step.
 */
export function configForDoctor(ctx: DoctorContext): Promise<DoctorConfig> {
  let config = loaded.get(ctx);
  if (!config) {
    config = load(ctx);
    loaded.set(ctx, config);
  }
  return config;
}

/**
 * Hands the config step's own validated config to the later steps of this run, so they do not
 * read, resolve and validate the file again. Only for a file doctor left as it is and that
 * validated with no plugin problems: exactly what `configForDoctor` would load.
 */
export function shareDoctorConfig(ctx: DoctorContext, config: OpenClawConfig): void {
  loaded.set(ctx, Promise.resolve({ config, usedDefaults: false }));
}

async function load({ paths }: DoctorContext): Promise<DoctorConfig> {
  try {
    return { config: (await loadConfigWithPlugins(paths)).config, usedDefaults: false };
  } catch {
    const fallback = validateConfig({}, createConfigRegistry());
    if (!fallback.ok) throw new Error("the empty config must be valid");
    return { config: fallback.config, usedDefaults: true };
  }
}
