import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import {
  ConfigFileError,
  createConfigRegistry,
  formatProblems,
  getAtPath,
  parseConfigPath,
  resolveConfigSource,
  updateConfigFile,
  validateConfig,
  type ConfigProblem,
} from "../../config/index.js";
import { collectSecretValues, REDACTED, redactSecrets } from "../../redaction/index.js";
import { defineTool, ToolError, type AgentTool } from "../../tool-contract/index.js";
import type { ConfigReloadReport, GatewayToolHost } from "./host.js";
import { isOwnerMainSession } from "./owner.js";
import { applyMergePatch, applyPathChanges } from "./patch.js";

/** Longest config text `config.get` hands back. */
const MAX_CONFIG_CHARS = 20_000;

const schema = z.strictObject({
  action: z
    .enum(["config.get", "config.patch", "reload"])
    .describe("config.get: running config, secrets as ***; config.patch: change the file and reload; reload: apply the file now."),
  path: z.string().min(1).optional().describe("config.get: one key, e.g. channels.telegram."),
  patch: z.record(z.string(), z.unknown()).optional().describe("JSON merge patch of the file (null removes a key, arrays replace)."),
  set: z
    .array(z.strictObject({ path: z.string().min(1), value: z.unknown().optional() }))
    .optional()
    .describe("Instead of patch: [{path, value}]; no value removes the key."),
  reload: z.boolean().optional().describe("Reload after config.patch (default true)."),
});

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const problemKey = (p: ConfigProblem) => `${p.path}\u0000${p.message}`;

function containsRedactionMark(value: unknown): boolean {
  if (value === REDACTED) return true;
  if (Array.isArray(value)) return value.some(containsRedactionMark);
  return isObject(value) && Object.values(value).some(containsRedactionMark);
}

/** Every problem the raw file content `raw` would have when loaded (schema, `${VAR}`, `$include`). */
async function problemsOf(host: GatewayToolHost, raw: unknown): Promise<ConfigProblem[]> {
  try {
    const resolved = await resolveConfigSource(raw, { file: host.configPath, ...(host.env ? { env: host.env } : {}) });
    const result = validateConfig(resolved, createConfigRegistry(host.channels ?? []));
    return result.ok ? [] : result.problems;
  } catch (err) {
    if (err instanceof ConfigFileError)
      return err.problems.map((p) => ({ kind: "invalid" as const, path: p.path ?? "", message: p.message }));
    throw err;
  }
}

/** One or two sentences for the model: what a reload applied, kept, or needs a restart for. */
export function describeReload(report: ConfigReloadReport): string {
  if (report.outcome === "invalid") return `The running gateway kept its config: ${report.problems ?? "the file is invalid"}`;
  const parts = [
    report.outcome === "unchanged"
      ? "The running gateway already runs this config."
      : `Applied without a restart: ${report.applied.join(", ") || "nothing"}.`,
  ];
  if (report.needsRestart.length > 0)
    parts.push(`Needs a restart of the gateway (stop it and start it again with openclaw gateway): ${report.needsRestart.join(", ")}.`);
  return parts.join(" ");
}

/**
 * The `gateway` tool, for the owner's main session only (see {@link isOwnerMainSession}; any
 * other session gets an error): `config.get` shows the running config with secrets as `***`;
 * `config.patch` changes the config file through `updateConfigFile` (its lock, atomic write and
 * `.bak` generations, as `openclaw config set`) after validating the result (a change adding a
 * problem is refused with the schema error; problems the file already had do not block) and then
 * reloads the running gateway; `reload` applies the file now. Values `***` are refused: they are
 * the redaction mark, not a secret.
 */
export function createGatewayTool(host: GatewayToolHost): AgentTool {
  return defineTool({
    name: "gateway",
    description:
      "Read or change the OpenClaw config and reload the gateway. Agent, model, tool and channel settings apply " +
      "at once; gateway.port, bind and auth need a restart.",
    groups: ["group:automation"],
    schema,
    async run(input, ctx) {
      if (!isOwnerMainSession(ctx.config, ctx.agentId, ctx.sessionKey)) {
        throw new ToolError(
          `The gateway tool works only in the owner's main session (agent:${ctx.agentId}:${ctx.config.session.mainKey}); this is ${ctx.sessionKey}.`,
        );
      }
      if (input.action === "config.get") {
        const view = redactSecrets(ctx.config, collectSecretValues(ctx.config));
        const value = input.path ? getAtPath(view, parseConfigPath(input.path)) : view;
        if (value === undefined) throw new ToolError(`${input.path} is not set in ${host.configPath} and has no default.`);
        const text = JSON.stringify(value, null, 2);
        return { content: text.length > MAX_CONFIG_CHARS ? `${text.slice(0, MAX_CONFIG_CHARS)}\n[… clipped; ask for a path]` : text };
      }
      if (input.action === "reload") {
        if (!host.reload)
          throw new ToolError("No gateway runs in this process; start it with `openclaw gateway` (it reads the file then).");
        const report = await host.reload();
        return { content: describeReload(report), isError: report.outcome === "invalid", details: { ...report } };
      }
      return patchConfig(host, input);
    },
  });
}

async function patchConfig(host: GatewayToolHost, input: z.output<typeof schema>) {
  const file = host.configPath;
  if (!input.patch === !input.set)
    throw new ToolError("config.patch takes either `patch` (a JSON merge patch) or `set` (path/value changes).");
  if (containsRedactionMark(input.patch ?? input.set?.map((c) => c.value))) {
    throw new ToolError(
      `"${REDACTED}" is how config.get hides secrets; leave a secret out of the patch to keep it, or give the real value.`,
    );
  }
  const { written, backupPath } = await updateConfigFile(file, async ({ exists, raw }) => {
    const current = exists ? raw : {};
    if (!isObject(current)) throw new ToolError(`${file} does not hold a JSON object; fix it by hand first.`);
    const next = input.patch ? applyMergePatch(current, input.patch) : applyPathChanges(current, input.set ?? []);
    if (isDeepStrictEqual(current, next)) return undefined;
    const known = new Set((await problemsOf(host, current)).map(problemKey));
    const added = (await problemsOf(host, next)).filter((p) => !known.has(problemKey(p)));
    if (added.length > 0) throw new ToolError(`Not written: the patch would make the config invalid.\n${formatProblems(file, added)}`);
    return next;
  });
  if (!written) return { content: `The patch changes nothing in ${file}.`, details: { written: false } };
  const lines = [`Wrote ${file}${backupPath ? ` (the previous version is kept as ${backupPath})` : ""}.`];
  let report: ConfigReloadReport | undefined;
  if (input.reload !== false && host.reload) {
    report = await host.reload();
    lines.push(describeReload(report));
  } else {
    lines.push("A running gateway picks the change up from the file by itself.");
  }
  return {
    content: lines.join(" "),
    isError: report?.outcome === "invalid",
    details: { written: true, ...(backupPath ? { backupPath } : {}), ...(report ? { reload: report } : {}) },
  };
}

/** The `gateway` tool when `sessionKey` is the owner's main session of `agentId`, else nothing. */
export function gatewayToolsFor(input: {
  config: Parameters<typeof isOwnerMainSession>[0];
  agentId: string;
  sessionKey: string;
  host: GatewayToolHost;
}): AgentTool[] {
  return isOwnerMainSession(input.config, input.agentId, input.sessionKey) ? [createGatewayTool(input.host)] : [];
}
