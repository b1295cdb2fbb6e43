import path from "node:path";
import type { Command } from "commander";
import { writeConfigFile } from "../../config/index.js";
import {
  ensureWorkspace,
  normalizeAgentId,
  resetWorkspaceState,
  resolveDefaultAgentId,
  resolveWorkspaceSettings,
} from "../../workspace/index.js";
import type { CliContext } from "../context.js";

interface SetupOptions {
  workspace?: string;
  agent?: string;
  nonInteractive?: boolean;
  resetWorkspaceState?: boolean;
}

/** `openclaw setup`: create the config when missing and initialize the agent workspace. */
export function registerSetup(program: Command, ctx: CliContext): void {
  program
    .command("setup")
    .description("create the config file if it is missing and initialize the agent workspace")
    .option(
      "--workspace <dir>",
      "workspace folder to initialize; saved as agents.defaults.workspace when setup creates the config",
    )
    .option("--agent <id>", "initialize this agent's workspace (default: the default agent)")
    .option("--non-interactive", "never ask questions (setup asks none yet; accepted for scripts)")
    .option(
      "--reset-workspace-state",
      "forget the workspace's recorded setup state and attestation first (after wiping it on purpose)",
    )
    .action(async (opts: SetupOptions) => {
      const out = ctx.stdout;
      const paths = ctx.paths();
      let loaded = await ctx.loadConfig();
      const workspaceOverride = opts.workspace !== undefined ? path.resolve(opts.workspace) : undefined;
      const forDefaultAgent =
        opts.agent === undefined || normalizeAgentId(opts.agent) === resolveDefaultAgentId(loaded.config);

      if (!loaded.exists) {
        // Atomic (temp file + rename), mode 0600.
        const fresh = workspaceOverride && forDefaultAgent ? { agents: { defaults: { workspace: workspaceOverride } } } : {};
        await writeConfigFile(loaded.path, fresh, { backup: false });
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

      const settings = resolveWorkspaceSettings(
        loaded.config,
        opts.agent,
        paths,
        workspaceOverride ? { workspaceOverride } : {},
      );
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
    });
}
