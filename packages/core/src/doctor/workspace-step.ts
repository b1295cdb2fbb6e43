import { detectLegacyWorkspaceState, importLegacyWorkspaceState, resolveAllWorkspaceDirs } from "../workspace/index.js";
import { configForDoctor } from "./load-config.js";
import { emptyResult, type DoctorStep } from "./types.js";

/** Imports workspace setup state and `.attested` sidecars of older releases into the state database. */
export const workspaceStep: DoctorStep = {
  id: "workspace-state",
  title: "Workspace state",
  async run(ctx) {
    const { paths, fix } = ctx;
    const result = emptyResult();
    const { config, usedDefaults } = await configForDoctor(ctx);
    const workspaceDirs = resolveAllWorkspaceDirs(config, paths);
    const found = detectLegacyWorkspaceState({ stateDir: paths.stateDir, workspaceDirs });
    if (found.length === 0) return result;
    if (usedDefaults) result.notes.push("The config is invalid, so only the default workspace was searched.");
    if (!fix) {
      for (const file of found) result.changes.push(`import ${file.path} into ${paths.stateDir}/state/openclaw.sqlite, then remove it`);
      return result;
    }
    const report = await importLegacyWorkspaceState({ stateDir: paths.stateDir, workspaceDirs });
    result.changes.push(...report.imported.map((line) => `imported ${line}`));
    result.notes.push(...report.removed.map((file) => `removed ${file} (its content is now in the state database)`));
    result.problems.push(...report.problems);
    return result;
  },
};
