// `openclaw setup`, loaded only when it runs.
import path from "node:path";
import { updateConfigFile } from "../../config/index.js";
import {
  ensureWorkspace,
  normalizeAgentId,
  resetWorkspaceState,
  resolveDefaultAgentId,
  resolveWorkspaceSettings,
} from "../../workspace/index.js";
import type { CliContext } from "../context.js";

export interface SetupOptions {
  workspace?: string;
  agent?: string;
  nonInteractive?: boolean;
  resetWorkspaceState?: boolean;
}

/**
 * Creates the config when missing (mode 0600; with `--workspace` for the default agent it records
 * agents.defaults.workspace) and initializes the agent's workspace without overwriting files.
 */
export async function runSetup(ctx: CliContext, opts: SetupOptions): Promise<void> {
  const out = ctx.stdout;
  const paths = ctx.paths();
  let loaded = await ctx.loadConfig();
  const workspaceOverride = opts.workspace !== undefined ? path.resolve(opts.workspace) : undefined;
  const forDefaultAgent = opts.agent === undefined || normalizeAgentId(opts.agent) === resolveDefaultAgentId(loaded.config);

  const fresh = workspaceOverride && forDefaultAgent ? { agents: { defaults: { workspace: workspaceOverride } } } : {};
  // Atomic (temp file + rename), mode 0600, under the config lock: written only if still missing then.
  const created =
    !loaded.exists && (await updateConfigFile(loaded.path, ({ exists }) => (exists ? undefined : fresh), { backup: false })).written;
  if (created) {
    out.write(`Created config ${loaded.path}\n`);
    loaded = await ctx.loadConfig();
  } else {
    out.write(`Config ${loaded.path} already exists (left unchanged)\n`);
    if (workspaceOverride) {
      out.write(
        `Note: --workspace applies to this run only; set agents.defaults.workspace (or ` +
          `agents.entries.<id>.workspace) in ${loaded.path} to make it permanent.\n`,
      );
    }
  }

  const settings = resolveWorkspaceSettings(loaded.config, opts.agent, paths, workspaceOverride ? { workspaceOverride } : {});
  const dir = settings.workspaceDir;
  if (opts.resetWorkspaceState) {
    const cleared = resetWorkspaceState({ stateDir: paths.stateDir, workspaceDir: dir });
    out.write(
      cleared.setupCleared || cleared.attestationCleared
        ? `Forgot the recorded setup state of ${dir}\n`
        : `No setup state was recorded for ${dir}\n`,
    );
  }
  if (settings.skipBootstrap) {
    out.write(`agents.defaults.skipBootstrap is true: no workspace files were created in ${dir}\n`);
    return;
  }

  const result = await ensureWorkspace({ workspaceDir: dir, stateDir: paths.stateDir });
  out.write(`Workspace ${dir} (agent ${settings.agentId})\n`);
  out.write(
    result.created.length
      ? `  created ${result.created.join(", ")}\n`
      : "  every bootstrap file was already there; nothing was overwritten\n",
  );
  if (result.gitInitialized) out.write("  initialized a git repository (commit it somewhere safe as a backup)\n");
  if (result.bootstrapStatus === "pending") {
    out.write("  first run pending: BOOTSTRAP.md guides the first conversation; the agent deletes it when done\n");
  }
  out.write("Run `openclaw context` to see exactly what the model receives from these files.\n");
}
