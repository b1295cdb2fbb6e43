// The interactive side of `openclaw onboard` (@clack/prompts): every question first, the checks
// as they come, one write at the end. Ctrl-C or Escape at any question leaves nothing written.
import path from "node:path";
import * as p from "@clack/prompts";
import { UserError } from "../../config/index.js";
import {
  credentialFields,
  listChannelChoices,
  loadChannelPlugin,
  PROVIDER_PRESETS,
  providerPreset,
  type ChannelAnswer,
  type ChannelChoice,
  type ProviderAnswer,
  type ProviderPreset,
} from "../../onboard/index.js";
import { resolveDefaultAgentId, resolveWorkspaceDir } from "../../workspace/index.js";
import { exitSoon, runChannelsLoginCommand } from "./channel-login.js";
import {
  DM_POLICIES,
  type DmPolicy,
  installChannelPlugin,
  installGatewayService,
  loadServiceInstaller,
  OnboardCancelled,
  type OnboardInput,
  saveOnboarding,
  splitIds,
  verifyChannel,
  verifyProvider,
} from "./onboard-steps.js";

/** The answer, or `OnboardCancelled` when the user pressed Ctrl-C or Escape. */
async function ask<T>(prompt: Promise<T>): Promise<Exclude<T, symbol>> {
  const value = await prompt;
  if (p.isCancel(value)) throw new OnboardCancelled();
  return value as Exclude<T, symbol>;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function askProviderKey(preset: ProviderPreset, env: NodeJS.ProcessEnv): Promise<ProviderAnswer["apiKey"]> {
  const fromEnv = preset.apiKeyEnv ? env[preset.apiKeyEnv] : undefined;
  if (fromEnv && preset.apiKeyEnv) {
    const useEnv = await ask(
      p.confirm({
        message: `Use the key in $${preset.apiKeyEnv}? (saved as the reference \${${preset.apiKeyEnv}}, not the key itself)`,
        initialValue: true,
      }),
    );
    if (useEnv) return { value: fromEnv, env: preset.apiKeyEnv, storage: "env" };
  }
  const optional = preset.keyless || preset.id === "custom";
  const key = await ask(
    p.password({
      message: `API key${optional ? " (leave empty if the server needs none)" : ""}; it is saved in the config file, readable by you only`,
      validate: (v) => (!optional && !v?.trim() ? "Enter the key (or press Ctrl-C to stop; nothing is written)" : undefined),
    }),
  );
  const typed = (key ?? "").trim();
  return typed ? { value: typed, storage: "config" } : undefined;
}

async function askModel(models: string[], preset: ProviderPreset): Promise<string> {
  if (models.length === 0) {
    return ask(
      p.text({
        message: "Default model (as the provider names it)",
        ...(preset.defaultModel ? { initialValue: preset.defaultModel } : {}),
        validate: (v) => (!v?.trim() ? "Enter a model id" : undefined),
      }),
    ).then((v) => v.trim());
  }
  const options = models.map((m) => ({ value: m, label: m }));
  const initial = preset.defaultModel && models.includes(preset.defaultModel) ? preset.defaultModel : models[0];
  if (models.length > 12) {
    return ask(
      p.autocomplete({ message: "Default model (type to filter)", options, maxItems: 10, ...(initial ? { initialValue: initial } : {}) }),
    );
  }
  return ask(p.select({ message: "Default model", options, ...(initial ? { initialValue: initial } : {}) }));
}

/** Provider, key (checked with one call to its model list) and model; asks again after a failed check. */
async function askProvider(input: OnboardInput): Promise<ProviderAnswer> {
  const { ctx, env } = input;
  const presetId = await ask(
    p.select({
      message: "Model provider",
      options: PROVIDER_PRESETS.map((x) => ({ value: x.id, label: x.label, ...(x.baseUrl && !x.builtin ? { hint: x.baseUrl } : {}) })),
      initialValue: "openai",
    }),
  );
  const preset = providerPreset(presetId)!;
  let id = preset.id;
  if (preset.id === "custom") {
    id = await ask(
      p.text({
        message: "A short id for this provider (used in model names, e.g. custom/<model>)",
        initialValue: "custom",
        validate: (v) => (/^[a-z0-9][a-z0-9_.-]*$/.test(v ?? "") ? undefined : "Use lowercase letters, digits, '.', '_' and '-'"),
      }),
    );
  }
  let baseUrl = preset.baseUrl ?? "";
  for (;;) {
    if (preset.id === "custom" || preset.keyless) {
      baseUrl = await ask(
        p.text({
          message: "Base URL of the OpenAI-compatible API",
          ...(baseUrl ? { initialValue: baseUrl } : { placeholder: "http://127.0.0.1:8000/v1" }),
          validate: (v) => (URL.canParse(v ?? "") ? undefined : "Enter a URL such as https://api.example.com/v1"),
        }),
      );
    }
    const apiKey = preset.keyless ? undefined : await askProviderKey(preset, env);
    try {
      const { models } = await verifyProvider(ctx, { api: preset.api, baseUrl, ...(apiKey ? { apiKey: apiKey.value } : {}) });
      return { id, preset: preset.id, baseUrl, ...(apiKey ? { apiKey } : {}), model: await askModel(models, preset) };
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      p.log.error(errorText(err));
      const next = await ask(
        p.select({
          message: "What now?",
          options: [
            { value: "retry", label: "Enter it again" },
            { value: "keep", label: "Keep it unchecked and go on" },
          ],
        }),
      );
      if (next === "keep") return { id, preset: preset.id, baseUrl, ...(apiKey ? { apiKey } : {}), model: await askModel([], preset) };
    }
  }
}

/** One channel's credential keys, checked through its plugin; asks again after a failed check. */
async function askChannel(input: OnboardInput, choice: ChannelChoice, dmPolicy: DmPolicy, allowFrom: string[]): Promise<ChannelAnswer> {
  const { ctx, env, base } = input;
  const fields = credentialFields(choice.configSchema);
  for (;;) {
    const answer: ChannelAnswer = { id: choice.id, values: {}, secrets: {}, dmPolicy, allowFrom };
    for (const f of fields) {
      if (f.env && env[f.env]) {
        const useEnv = await ask(
          p.confirm({ message: `${choice.label} ${f.key}: use $${f.env} from the environment?`, initialValue: true }),
        );
        if (useEnv) {
          answer.values[f.key] = env[f.env]!;
          if (f.secret) answer.secrets[f.key] = { storage: "env", env: f.env };
          continue;
        }
      }
      const message = `${choice.label} ${f.key}: ${f.description} (leave empty to skip)`;
      const value = ((await ask(f.secret ? p.password({ message }) : p.text({ message, defaultValue: "" }))) ?? "").trim();
      if (!value) continue;
      answer.values[f.key] = value;
      if (f.secret) answer.secrets[f.key] = f.fileKey ? { storage: "file", fileKey: f.fileKey } : { storage: "config" };
    }
    try {
      await verifyChannel(ctx, { paths: ctx.paths(), base, answer, label: choice.label, env });
      return answer;
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      p.log.error(errorText(err));
      const again = await ask(p.confirm({ message: `Enter the ${choice.label} credentials again?`, initialValue: true }));
      if (!again) return answer;
    }
  }
}

async function askChannels(input: OnboardInput): Promise<ChannelAnswer[]> {
  const { ctx, base } = input;
  const paths = ctx.paths();
  let choices = await listChannelChoices(paths, base);
  if (choices.length === 0) {
    p.log.warn("No channel plugin is installed or installable here; add one later with `openclaw plugins install <name>`.");
    return [];
  }
  const picked = await ask(
    p.multiselect({
      message: "Channels to connect (space to pick, enter to go on)",
      options: choices.map((c) => ({ value: c.id, label: c.label, hint: c.installed ? "installed" : "installs its plugin" })),
      required: false,
    }),
  );
  if (picked.length === 0) return [];
  const dmPolicy = await ask(
    p.select({
      message: "Who may message the bot directly?",
      options: [
        {
          value: "pairing" as DmPolicy,
          label: "pairing",
          hint: "strangers get a code you approve with `openclaw pairing approve` (recommended)",
        },
        { value: "allowlist" as DmPolicy, label: "allowlist", hint: "only the sender ids you list" },
        { value: "open" as DmPolicy, label: "open", hint: "anyone" },
        { value: "disabled" as DmPolicy, label: "disabled", hint: "ignore direct messages" },
      ].filter((o) => DM_POLICIES.includes(o.value)),
      initialValue: "pairing" as DmPolicy,
    }),
  );
  let allowFrom: string[] = [];
  if (dmPolicy === "allowlist") {
    allowFrom = splitIds(
      await ask(
        p.text({
          message: "Sender ids allowed to DM the bot (comma-separated)",
          validate: (v) => (splitIds(v).length === 0 ? "Enter at least one id" : undefined),
        }),
      ),
    );
  }
  const answers: ChannelAnswer[] = [];
  for (const id of picked) {
    let choice = choices.find((c) => c.id === id)!;
    if (!choice.installed) {
      await installChannelPlugin(ctx, paths, id, choice.label);
      choices = await listChannelChoices(paths, base);
      choice = choices.find((c) => c.id === id)!;
    }
    answers.push(await askChannel(input, choice, dmPolicy, allowFrom));
  }
  return answers;
}

/** The wizard: asks everything, writes once, then offers QR linking and the service. */
export async function runWizard(input: OnboardInput): Promise<void> {
  const { ctx, base, env } = input;
  const paths = ctx.paths();
  let saved = false;
  let linked = false;
  try {
    p.intro("OpenClaw onboarding");
    p.log.info(`Nothing is written until the last step; Ctrl-C stops without changes. Config: ${paths.configPath}`);
    const provider = await askProvider(input);
    const defaultWorkspace = resolveWorkspaceDir(base as never, resolveDefaultAgentId(base as never), paths, { env });
    const workspace = await ask(
      p.text({ message: "Workspace folder (the agent's files and memory)", initialValue: input.opts.workspace ?? defaultWorkspace }),
    );
    const channels = await askChannels(input);
    await saveOnboarding(ctx, {
      provider,
      ...(path.resolve(workspace) !== defaultWorkspace ? { workspace: path.resolve(workspace) } : {}),
      channels,
      extra: input.sets,
    });
    saved = true;
    for (const c of channels) {
      if (!(await loadChannelPlugin(paths, base, c.id)).login) continue;
      if (await ask(p.confirm({ message: `Link ${c.id} now (scan a QR code with the phone)?`, initialValue: true }))) {
        linked = true;
        try {
          await runChannelsLoginCommand(ctx, c.id, {}, { exitWhenDone: false });
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          p.log.warn(`${errorText(err)} Link it later with \`openclaw channels login ${c.id}\`.`);
        }
      } else {
        p.log.info(`Link it later with \`openclaw channels login ${c.id}\`.`);
      }
    }
    const service = await loadServiceInstaller();
    if (
      service &&
      (await ask(p.confirm({ message: "Install the gateway as a service (starts at login, restarts on failure)?", initialValue: true })))
    ) {
      await installGatewayService(ctx, service);
      p.outro("Done. The gateway runs as a service; `openclaw status` shows it.");
    } else {
      p.outro("Done. Start the gateway with `openclaw gateway`, or keep it running as a service with `openclaw gateway install`.");
    }
    // A linking plugin may leave its socket open: exit once the wizard is done, as `channels login` does.
    if (linked) exitSoon();
  } catch (err) {
    if (!(err instanceof OnboardCancelled)) throw err;
    p.cancel(saved ? "Stopped. The config was already saved." : "Onboarding cancelled; nothing was written.");
    process.exitCode = 130;
  }
}
