// `openclaw context`, loaded only when it runs.
import { existsSync } from "node:fs";
import { UserError } from "../../config/index.js";
import { assembleProjectContext, normalizeAgentId, resolveWorkspaceSettings } from "../../workspace/index.js";
import { fileSummary, KIND_LABEL, type ToolSize, toolTable } from "../../commands/context-report.js";
import type { CliContext } from "../context.js";

export interface ContextOptions {
  agent?: string;
  session?: string;
  json?: boolean;
  detail?: boolean;
  /** The context of a heartbeat run (HEARTBEAT.md included). */
  heartbeat?: boolean;
}

/** Every tool the session would get (after the tool policy), with its schema size, heaviest first. */
async function toolSizes(
  ctx: CliContext,
  config: Awaited<ReturnType<CliContext["loadConfig"]>>["config"],
  agentId: string,
  sessionKey: string,
): Promise<ToolSize[]> {
  const [{ AgentRuntime }, { toolSchemaSizes }, { createMessageTool }] = await Promise.all([
    import("../../agent/index.js"),
    import("../../tools/index.js"),
    import("../../routing/index.js"),
  ]);
  // With channels configured the gateway also offers the `message` tool: count it the same way
  // (its description names the configured channels; nothing is sent from here).
  const channels = Object.values((config as { channels?: Record<string, { enabled?: unknown } | undefined> }).channels ?? {});
  const withChannels = channels.some((c) => c !== undefined && c?.enabled !== false);
  const runtime = new AgentRuntime({
    config,
    paths: ctx.paths(),
    ...(withChannels
      ? {
          extraTools: () => [
            createMessageTool({
              config,
              pairing: { isApproved: () => false },
              send: async () => {
                throw new Error("openclaw context does not send messages");
              },
            }),
          ],
        }
      : {}),
  });
  try {
    return toolSchemaSizes(await runtime.toolsForSession(agentId, sessionKey));
  } finally {
    await runtime.close();
  }
}

function agentFromSessionKey(key: string): string | undefined {
  const match = /^agent:([^:]+):/i.exec(key.trim());
  return match ? normalizeAgentId(match[1]!) : undefined;
}

/**
 * Prints the bootstrap files exactly as the model receives them. Room is left for a later
 * `--detail` (tool schema sizes): it would add sections after the file table and a `tools` key to
 * the JSON, without changing what is printed today.
 */
export async function showContext(ctx: CliContext, opts: ContextOptions): Promise<void> {
  const paths = ctx.paths();
  const loaded = await ctx.loadConfig();
  const fromKey = opts.session !== undefined ? agentFromSessionKey(opts.session) : undefined;
  const agent = opts.agent !== undefined ? normalizeAgentId(opts.agent) : fromKey;
  if (fromKey !== undefined && agent !== fromKey) {
    throw new UserError(
      `--session ${opts.session} belongs to agent "${fromKey}", but --agent says "${agent}"; drop one of them or make them agree.`,
      2,
    );
  }
  const settings = resolveWorkspaceSettings(loaded.config, agent, paths);
  const sessionKey = opts.session?.trim() || `agent:${settings.agentId}:main`;
  const result = await assembleProjectContext(settings.workspaceDir, {
    sessionKey,
    heartbeat: opts.heartbeat === true,
    maxChars: settings.bootstrapMaxChars,
    totalMaxChars: settings.bootstrapTotalMaxChars,
  });
  const workspaceExists = existsSync(settings.workspaceDir);
  const tools = opts.detail ? await toolSizes(ctx, loaded.config, settings.agentId, sessionKey) : undefined;

  if (opts.json) {
    ctx.stdout.write(
      `${JSON.stringify(
        {
          agentId: settings.agentId,
          workspaceDir: settings.workspaceDir,
          workspaceExists,
          sessionKey,
          sessionKind: result.sessionKind,
          bootstrapPending: result.bootstrapPending,
          files: result.files,
          totals: result.totals,
          text: result.text,
          ...(tools ? { tools, toolsTotalChars: tools.reduce((n, t) => n + t.totalChars, 0) } : {}),
        },
        null,
        2,
      )}\n`,
    );
    return;
  }

  const out = ctx.stdout;
  out.write(
    `Agent ${settings.agentId}, session ${sessionKey} (${KIND_LABEL[result.sessionKind]})${opts.heartbeat ? ", heartbeat run" : ""}\n`,
  );
  out.write(`Workspace ${settings.workspaceDir}\n`);
  if (!workspaceExists) out.write("  this folder does not exist yet; run `openclaw setup` to create it\n");
  out.write(`Limits: ${result.totals.maxChars} characters per file, ${result.totals.totalMaxChars} for all files together\n\n`);
  out.write(fileSummary(result));
  if (result.bootstrapPending) out.write("First run pending: BOOTSTRAP.md is present, so first-run guidance is added too.\n");
  out.write("\n");
  if (tools) {
    out.write("Tools the model is offered (their names, descriptions and schemas are sent with every call):\n");
    out.write(toolTable(tools));
    out.write("\n");
  }
  if (!result.text) {
    out.write("No project context is injected for this session.\n");
    return;
  }
  out.write(`----- project context as the model receives it (${result.totals.textChars} characters) -----\n`);
  out.write(result.text.endsWith("\n") ? result.text : `${result.text}\n`);
  out.write("----- end of project context -----\n");
}
