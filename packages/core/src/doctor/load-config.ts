import { validateConfig, createConfigRegistry, type OpenClawConfig, type OpenClawPaths } from "../config/index.js";
import { loadConfigWithPlugins } from "../plugins/index.js";

/**
 * The config later doctor steps work with: the validated file, or the safe defaults when the
 * file is still invalid (the config step has already reported why).
 */
export async function configForDoctor(paths: OpenClawPaths): Promise<{ config: OpenClawConfig; usedDefaults: boolean }> {
  try {
    return { config: (await loadConfigWithPlugins(paths)).config, usedDefaults: false };
  } catch {
    const fallback = validateConfig({}, createConfigRegistry());
    if (!fallback.ok) throw new Error("the empty config must be valid");
    return { config: fallback.config, usedDefaults: true };
  }
}
