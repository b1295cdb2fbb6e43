// `openclaw onboard`, loaded only when it runs: the wizard on a terminal, or `--non-interactive`
// answers from flags and the environment. Nothing is written until every answer is in.
import path from "node:path";
import { readConfigSource, UserError } from "../../config/index.js";
import {
  credentialFields,
  listChannelChoices,
  loadChannelPlugin,
  providerPreset,
  PROVIDER_PRESETS,
  type ChannelAnswer,
  type OnboardAnswers,
} from "../../onboard/index.js";
import type { CliContext } from "../context.js";
import { writeLine } from "../output.js";
import {
  installChannelPlugin,
  type OnboardInput,
  type OnboardOptions,
  parseDmPolicy,
  splitIds,
  installGatewayService,
  loadServiceInstaller,
  parseSets,
  saveOnboarding,
  verifyChannel,
  verifyProvider,
  withSets,
} from "./onboard-steps.js";

export type { OnboardOptions } from "./onboard-steps.js";

/** The answers from flags and the environment; throws a UserError naming the missing flag or variable. */
async function answersFromFlags(input: OnboardInput): Promise<OnboardAnswers> {
  const { ctx, opts, env, base } = input;
  const paths = ctx.paths();
  if (!opts.provider) {
    throw new UserError(`--non-interactive needs --provider <id>: one of ${PROVIDER_PRESETS.map((p) => p.id).join(", ")}.`, 2);
  }
  const preset = providerPreset(opts.provider);
  if (!preset) throw new UserError(`Unknown --provider "${opts.provider}": use one of ${PROVIDER_PRESETS.map((p) => p.id).join(", ")}.`, 2);
  const baseUrl = opts.baseUrl ?? preset.baseUrl;
  if (!baseUrl) throw new UserError("--provider custom needs --base-url <url> (the OpenAI-compatible endpoint, usually ending in /v1).", 2);
  const keyEnv = opts.apiKeyEnv ?? preset.apiKeyEnv;
  const keyValue = keyEnv ? env[keyEnv] : undefined;
  if (!keyValue && opts.apiKeyEnv) throw new UserError(`--api-key-env ${opts.apiKeyEnv}: the variable is not set.`, 2);
  if (!keyValue && !preset.keyless && preset.id !== "custom") {
    throw new UserError(`${preset.label} needs an API key: set ${keyEnv} (or name another variable with --api-key-env VAR).`, 2);
  }
  const apiKey = keyValue && keyEnv ? { value: keyValue, env: keyEnv, storage: "env" as const } : undefined;
  const models = opts.skipChecks
    ? []
    : (await verifyProvider(ctx, { api: preset.api, baseUrl, ...(apiKey ? { apiKey: apiKey.value } : {}) })).models;
  const model = opts.model ?? models[0] ?? preset.defaultModel;
  if (!model) throw new UserError(`--model <id> is needed: ${baseUrl} lists no models.`, 2);
  if (opts.model && models.length > 0 && !models.includes(opts.model)) {
    writeLine(ctx.stderr, `Warning: ${baseUrl} does not list the model ${opts.model}; keeping it as asked.`);
  }

  const dmPolicy = parseDmPolicy(opts.dmPolicy);
  const allowFrom = splitIds(opts.allowFrom);
  if (dmPolicy === "allowlist" && allowFrom.length === 0) throw new UserError("--dm-policy allowlist needs --allow-from <ids>.", 2);
  const channels: ChannelAnswer[] = [];
  let choices = await listChannelChoices(paths, base);
  for (const id of opts.channel ?? []) {
    let choice = choices.find((c) => c.id === id);
    if (!choice)
      throw new UserError(
        `Unknown --channel "${id}": choose from ${choices.map((c) => c.id).join(", ") || "none (install a channel plugin first)"}.`,
        2,
      );
    if (!choice.installed) {
      await installChannelPlugin(ctx, paths, id, choice.label);
      choices = await listChannelChoices(paths, base);
      choice = choices.find((c) => c.id === id && c.installed);
      if (!choice) throw new UserError(`The plugin for channel "${id}" was installed but provides no such channel.`);
    }
    const fields = credentialFields(choice.configSchema);
    const answer: ChannelAnswer = { id, values: {}, secrets: {}, dmPolicy, allowFrom };
    for (const f of fields) {
      const value = f.env ? env[f.env] : undefined;
      if (!value) continue;
      answer.values[f.key] = value;
      if (f.secret) answer.secrets[f.key] = f.fileKey ? { storage: "file", fileKey: f.fileKey } : { storage: "env", env: f.env! };
    }
    const loginCapable = Boolean((await loadChannelPlugin(paths, base, id)).login);
    if (fields.length > 0 && Object.keys(answer.values).length === 0 && !loginCapable) {
      throw new UserError(
        `--channel ${id} needs its credentials: set ${fields.map((f) => f.env).join(" or ")} (see the channel's docs).`,
        2,
      );
    }
    if (!opts.skipChecks) await verifyChannel(ctx, { paths, base, answer, label: choice.label, env });
    channels.push(answer);
  }
  return {
    provider: {
      id: preset.id === "custom" ? (opts.providerId ?? "custom") : preset.id,
      preset: preset.id,
      baseUrl,
      ...(apiKey ? { apiKey } : {}),
      model,
    },
    ...(opts.workspace ? { workspace: path.resolve(opts.workspace) } : {}),
    channels,
    extra: input.sets,
  };
}

/** Next steps once the config is saved: link QR-login channels, start or install the gateway. */
async function nonInteractiveFinish(input: OnboardInput, answers: OnboardAnswers): Promise<void> {
  const { ctx, opts, base } = input;
  for (const c of answers.channels) {
    if ((await loadChannelPlugin(ctx.paths(), base, c.id)).login)
      writeLine(ctx.stdout, `Next: link ${c.id} with \`openclaw channels login ${c.id}\`.`);
  }
  const service = await loadServiceInstaller();
  if (opts.installService) {
    if (!service) throw new UserError("--install-service: this build has no service installer; run `openclaw gateway install` instead.");
    await installGatewayService(ctx, service);
    return;
  }
  writeLine(
    ctx.stdout,
    "Next: start the gateway with `openclaw gateway`, or keep it running as a service with `openclaw gateway install`.",
  );
}

/**
 * `openclaw onboard`: asks (or reads from flags) every answer first, checks the key and the
 * channel credentials, then writes the config once (validated, atomic) with secrets in 0600 files
 * or `${VAR}` references, and creates the workspace. Ctrl-C before that leaves nothing written.
 */
export async function runOnboard(ctx: CliContext, opts: OnboardOptions): Promise<void> {
  const sets = parseSets(opts.set);
  const current = await readConfigSource(ctx.paths().configPath);
  const input: OnboardInput = { ctx, opts, base: withSets(current.raw, sets), sets, env: process.env };
  if (opts.nonInteractive) {
    const answers = await answersFromFlags(input);
    await saveOnboarding(ctx, answers);
    await nonInteractiveFinish(input, answers);
    return;
  }
  if (!(process.stdin as { isTTY?: boolean }).isTTY) {
    throw new UserError(
      "openclaw onboard asks its questions in a terminal; without one, pass --non-interactive and the flags (see docs/onboarding.md).",
      2,
    );
  }
  const { runWizard } = await import("./onboard-wizard.js");
  await runWizard(input);
}
