import { missingProviderPackages } from "../providers/index.js";
import { configForDoctor } from "./load-config.js";
import { emptyResult, type DoctorStep } from "./types.js";

/** Reports the provider packages (e.g. @openclaw/provider-anthropic) the configured models need and that are not installed. */
export const providersStep: DoctorStep = {
  id: "provider-packages",
  title: "Model provider packages",
  async run(ctx) {
    const { paths } = ctx;
    const result = emptyResult();
    const { config, usedDefaults } = await configForDoctor(ctx);
    if (usedDefaults) return result;
    for (const missing of missingProviderPackages(config, { configPath: paths.configPath })) {
      result.problems.push(`${missing.message} (used by ${missing.ref})`);
    }
    return result;
  },
};
