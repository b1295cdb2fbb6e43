// The steps of `openclaw onboard` that the wizard and `--non-interactive` share: the checks (with
// progress), installing a channel's plugin, and what happens once the answers are complete.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { deepMerge, parseCliValue, parseConfigPath, setAtPath, UserError, type OpenClawPaths } from "../../config/index.js";
import {
  checkChannelAccount,
  channelEntry,
  checkProvider,
  loadChannelPlugin,
  mergePlan,
  planOnboarding,
  type ChannelAnswer,
  type OnboardAnswers,
  type OnboardPlan,
  type ProviderCheckResult,
} from "../../onboard/index.js";
import { installPlugin } from "../../plugins/index.js";
import { ensureWorkspace, resolveWorkspaceSettings } from "../../workspace/index.js";
import type { CliContext } from "../context.js";
import { writeLine } from "../output.js";
import { withProgress } from "../progress.js";
import { changeConfig } from "../config-change.js";

/** `--set path=value` pairs, parsed as `openclaw config set` parses its value. */
export function parseSets(sets: readonly string[] | undefined): Array<{ path: string; value: unknown }> {
  return (sets ?? []).map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UserError(`--set takes path=value (e.g. --set gateway.port=18789), got "${pair}".`, 2);
    const at = pair.slice(0, eq);
    parseConfigPath(at);
    return { path: at, value: parseCliValue(pair.slice(eq + 1)) };
  });
}

/** `raw` with the `--set` values applied: the config the checks and plugin discovery see. */
export function withSets(raw: unknown, sets: Array<{ path: string; value: unknown }>): Record<string, unknown> {
  let out = structuredClone((raw ?? {}) as Record<string, unknown>);
  for (const s of sets) out = setAtPath(out, parseConfigPath(s.path), s.value);
  return out;
}

/** Calls the provider's model list once, showing progress; the key is never printed. */
export function verifyProvider(
  ctx: CliContext,
  input: { api: "openai-completions" | "anthropic-messages"; baseUrl: string; apiKey?: string },
): Promise<ProviderCheckResult> {
  return withProgress(ctx.stdout, `Checking ${input.baseUrl}`, () => checkProvider(input), {
    done: (r) => `${input.baseUrl} answered${r.models.length ? ` (${r.models.length} model${r.models.length === 1 ? "" : "s"})` : ""}`,
  });
}

/**
 * Checks a channel's credentials through its plugin (e.g. asking who the bot is), with the
 * answer's values inline (secret files are not written yet). Undefined when the plugin has no check.
 */
export async function verifyChannel(
  ctx: CliContext,
  input: { paths: OpenClawPaths; base: Record<string, unknown>; answer: ChannelAnswer; label: string; env: NodeJS.ProcessEnv },
): Promise<string | undefined> {
  const { paths, base, answer } = input;
  const plugin = await loadChannelPlugin(paths, base, answer.id);
  if (!plugin.checkAccount) return undefined;
  const entry = channelEntry({ ...answer, secrets: {} }, paths.stateDir);
  const config = deepMerge(base, { channels: { [answer.id]: entry } }) as Record<string, unknown>;
  return withProgress(
    ctx.stdout,
    `Checking the ${input.label} credentials`,
    () => checkChannelAccount({ paths, config, channel: answer.id, plugin, env: input.env }),
    { done: (identity) => `${input.label} answered as ${identity}` },
  );
}

/** Installs a first-party channel's plugin by its short name, showing progress. */
export async function installChannelPlugin(ctx: CliContext, paths: OpenClawPaths, channel: string, label: string): Promise<void> {
  await withProgress(
    ctx.stdout,
    `Installing the ${label} plugin`,
    (progress) =>
      installPlugin({
        paths,
        spec: channel,
        onOutput: (text) => {
          const line = text.trim().split("\n").pop();
          if (line) progress.update(`Installing the ${label} plugin: ${line.slice(0, 60)}`);
        },
      }),
    { done: (r) => `Installed ${r.plugin.packageName} ${r.plugin.version}` },
  );
}

async function writeSecretFiles(files: OnboardPlan["secretFiles"]): Promise<void> {
  for (const file of files) {
    await mkdir(path.dirname(file.path), { recursive: true, mode: 0o700 });
    await writeFile(file.path, file.text, { mode: 0o600 });
    await chmod(file.path, 0o600);
  }
}

/**
 * Writes everything at once: the secret files (0600), then the config (validated, atomic, under
 * its lock, the previous version kept), then creates the workspace. Returns the plan written.
 */
export async function saveOnboarding(ctx: CliContext, answers: OnboardAnswers): Promise<OnboardPlan> {
  const paths = ctx.paths();
  const plan = planOnboarding(answers, paths.stateDir);
  await changeConfig(ctx, "Saved the onboarding answers", (source) => mergePlan(source.raw, plan), {
    beforeWrite: () => writeSecretFiles(plan.secretFiles),
  });
  for (const file of plan.secretFiles) writeLine(ctx.stdout, `Kept a secret in ${file.path} (mode 0600)`);
  const loaded = await ctx.loadConfig();
  const settings = resolveWorkspaceSettings(loaded.config, undefined, paths);
  if (!settings.skipBootstrap) {
    const result = await ensureWorkspace({ workspaceDir: settings.workspaceDir, stateDir: paths.stateDir });
    writeLine(ctx.stdout, `Workspace ${settings.workspaceDir}${result.created.length ? ` (created ${result.created.join(", ")})` : ""}`);
  }
  return plan;
}

/** What `packages/core/src/service` exports once the service helper is part of this build. */
interface ServiceModule {
  installService(opts: {
    paths: OpenClawPaths;
    env: NodeJS.ProcessEnv;
    stdout: NodeJS.WritableStream;
  }): Promise<{ unitPath: string; started: boolean }>;
}

/**
 * The service installer (loaded on first use). A literal import, so the bin's bundles carry the
 * module: a computed specifier resolved against the bundle's folder and never found it.
 */
export async function loadServiceInstaller(): Promise<ServiceModule | undefined> {
  try {
    const mod = (await import("../../service/index.js")) as Partial<ServiceModule>;
    return typeof mod.installService === "function" ? (mod as ServiceModule) : undefined;
  } catch {
    return undefined;
  }
}

/** Installs the service and says what happened. */
export async function installGatewayService(ctx: CliContext, service: ServiceModule): Promise<void> {
  const result = await service.installService({ paths: ctx.paths(), env: process.env, stdout: ctx.stdout });
  writeLine(ctx.stdout, `Installed the gateway service (${result.unitPath})${result.started ? "; it is running" : ""}.`);
}

export interface OnboardOptions {
  nonInteractive?: boolean;
  provider?: string;
  providerId?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  model?: string;
  skipChecks?: boolean;
  workspace?: string;
  channel?: string[];
  dmPolicy?: string;
  allowFrom?: string;
  set?: string[];
  installService?: boolean;
}

export const DM_POLICIES = ["pairing", "allowlist", "open", "disabled"] as const;
export type DmPolicy = (typeof DM_POLICIES)[number];

/** What the wizard and the flags share: the config as it is (with `--set` applied) and the environment. */
export interface OnboardInput {
  ctx: CliContext;
  opts: OnboardOptions;
  /** The current config file's content with the `--set` values applied. */
  base: Record<string, unknown>;
  sets: Array<{ path: string; value: unknown }>;
  env: NodeJS.ProcessEnv;
}

/** Thrown when the user cancels a prompt (Ctrl-C, Escape). */
export class OnboardCancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

export function parseDmPolicy(value: string | undefined): DmPolicy {
  if (value === undefined) return "pairing";
  if ((DM_POLICIES as readonly string[]).includes(value)) return value as DmPolicy;
  throw new UserError(`--dm-policy must be one of ${DM_POLICIES.join(", ")} (got "${value}").`, 2);
}

export function splitIds(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
