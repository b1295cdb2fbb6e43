// What onboarding writes, computed from the answers alone (no I/O): the config patch merged onto
// the current file, and the secret files (mode 0600) the patch points at.
import path from "node:path";
import { deepMerge, parseConfigPath, setAtPath } from "../config/index.js";
import { providerPreset } from "./providers.js";

/** Where a secret goes: a 0600 file (when the key has a file twin), a `${VAR}` reference, or the 0600 config. */
export type SecretStorage = "file" | "env" | "config";

export interface ProviderAnswer {
  /** A preset id (openai, anthropic, openrouter, ollama, deepseek, moonshot, qwen) or a custom provider id. */
  id: string;
  /** The preset the answer started from ("custom" for any other OpenAI-compatible endpoint). */
  preset: string;
  baseUrl: string;
  /** Undefined for keyless servers. */
  apiKey?: { value: string; env?: string; storage: "env" | "config" };
  model: string;
}

export interface ChannelAnswer {
  id: string;
  /** Credential keys (and any other keys) with their values, e.g. `{ botToken: "…" }`. */
  values: Record<string, string>;
  /** How each secret key of `values` is stored; keys not listed go into the config as they are. */
  secrets: Record<string, { storage: SecretStorage; fileKey?: string; env?: string }>;
  dmPolicy: "pairing" | "allowlist" | "open" | "disabled";
  /** Sender ids for "allowlist" ("*" is added for "open"). */
  allowFrom: string[];
}

export interface OnboardAnswers {
  provider: ProviderAnswer;
  /** Absolute workspace folder; undefined keeps the default. */
  workspace?: string;
  channels: ChannelAnswer[];
  /** `--set path=value` pairs, applied last. */
  extra?: Array<{ path: string; value: unknown }>;
}

export interface OnboardPlan {
  /** Merged onto the current file (objects key by key; arrays and scalars replace). */
  patch: Record<string, unknown>;
  /** Written (0600, in 0700 folders) just before the config. */
  secretFiles: Array<{ path: string; text: string }>;
}

/** `<stateDir>/secrets/<channel>-<key>`: where onboarding keeps a channel secret that has a file key. */
export function secretFilePath(stateDir: string, channel: string, key: string): string {
  return path.join(stateDir, "secrets", `${channel}-${key}`);
}

function providerPatch(p: ProviderAnswer): Record<string, unknown> {
  const preset = providerPreset(p.preset);
  const entry: Record<string, unknown> = {};
  // A built-in provider at its usual address needs no baseUrl; anything else names its own.
  if (!preset?.builtin || preset.baseUrl !== p.baseUrl) entry.baseUrl = p.baseUrl;
  // Another address needs the protocol named (the schema's default is "openai-completions").
  if (preset?.api === "anthropic-messages" && entry.baseUrl !== undefined) entry.api = "anthropic-messages";
  if (p.apiKey) entry.apiKey = p.apiKey.storage === "env" && p.apiKey.env ? `\${${p.apiKey.env}}` : p.apiKey.value;
  return Object.keys(entry).length ? { models: { providers: { [p.id]: entry } } } : {};
}

/** `channels.<id>` for one answer; secrets kept in files are added to `files`. */
export function channelEntry(c: ChannelAnswer, stateDir: string, files: OnboardPlan["secretFiles"] = []): Record<string, unknown> {
  const entry: Record<string, unknown> = { dmPolicy: c.dmPolicy };
  for (const [key, value] of Object.entries(c.values)) {
    const secret = c.secrets[key];
    if (secret?.storage === "file" && secret.fileKey) {
      const file = secretFilePath(stateDir, c.id, key);
      files.push({ path: file, text: `${value}\n` });
      entry[secret.fileKey] = file;
    } else if (secret?.storage === "env" && secret.env) {
      entry[key] = `\${${secret.env}}`;
    } else {
      entry[key] = value;
    }
  }
  const allowFrom = c.dmPolicy === "open" ? [...new Set(["*", ...c.allowFrom])] : c.allowFrom;
  if (allowFrom.length > 0) entry.allowFrom = allowFrom;
  return entry;
}

/** The config patch and secret files for `answers`; `stateDir` locates the secret files. */
export function planOnboarding(answers: OnboardAnswers, stateDir: string): OnboardPlan {
  const secretFiles: OnboardPlan["secretFiles"] = [];
  let patch = deepMerge(providerPatch(answers.provider), {
    agents: {
      defaults: {
        model: `${answers.provider.id}/${answers.provider.model}`,
        ...(answers.workspace ? { workspace: answers.workspace } : {}),
      },
    },
  }) as Record<string, unknown>;
  if (answers.channels.length > 0) {
    const channels = Object.fromEntries(answers.channels.map((c) => [c.id, channelEntry(c, stateDir, secretFiles)]));
    patch = deepMerge(patch, { channels }) as Record<string, unknown>;
  }
  for (const { path: at, value } of answers.extra ?? []) patch = setAtPath(patch, parseConfigPath(at), value) as Record<string, unknown>;
  return { patch, secretFiles };
}

/** The current file's content with the plan's patch merged on. */
export function mergePlan(current: unknown, plan: OnboardPlan): Record<string, unknown> {
  return deepMerge(current ?? {}, plan.patch) as Record<string, unknown>;
}
