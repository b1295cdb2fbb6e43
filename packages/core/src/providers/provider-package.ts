// Providers whose client library is heavy live in packages of their own, installed only by the
// users who configure them (like channel plugins). Core imports such a package on the first call.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ProviderError } from "./types.js";

/** What core needs to name in the message when a provider package is missing. */
export interface ProviderPackageRequest {
  /** The npm package, e.g. "@openclaw/provider-anthropic". */
  packageName: string;
  /** The provider id (`models.providers.<id>`) that needs it. */
  provider: string;
  /** Its wire protocol, e.g. "anthropic-messages". */
  api: string;
  model: string;
  /** The config file, named in the message when known. */
  configPath?: string;
  /** The package's folder in this repository (e.g. "packages/provider-anthropic"), installed from there when the checkout has it. */
  checkoutFolder?: string;
}

const loaded = new Map<string, Promise<unknown>>();

/**
 * The command that installs `packageName` next to @openclaw/core: from `checkoutFolder` of the
 * checkout the running core belongs to (`<root>/packages/core`) when that folder exists, as
 * first-party channels are (the registry's `@openclaw` scope is another project's), else by name.
 */
export function providerInstallCommand(packageName: string, checkoutFolder?: string): string {
  if (checkoutFolder) {
    // This file sits in src/providers/ or dist/providers/ of packages/core.
    const root = path.resolve(fileURLToPath(new URL("../../", import.meta.url)), "..", "..");
    const folder = path.join(root, checkoutFolder);
    if (existsSync(path.join(folder, "package.json"))) return `npm install -g ${folder}`;
  }
  return `npm install -g ${packageName}`;
}

/**
 * Imports a provider package once per process (later calls share the first import). When it is
 * not installed (or one of its own dependencies is missing) it throws a ProviderError of kind
 * "unknown" (so a configured fallback model still answers) naming the provider's config key, the
 * config file and the install command; a failed import is retried on the next call.
 */
export async function loadProviderPackage<T>(request: ProviderPackageRequest, importer = (s: string) => import(s)): Promise<T> {
  let pending = loaded.get(request.packageName);
  if (!pending) {
    pending = importer(request.packageName);
    loaded.set(request.packageName, pending);
    pending.catch(() => loaded.delete(request.packageName));
  }
  try {
    return (await pending) as T;
  } catch (err) {
    throw packageError(request, err);
  }
}

/**
 * Says that `request.packageName` is missing (or, with `loadError`, failed to load), naming the
 * provider's config key, the config file and the install command.
 */
export function providerPackageMessage(request: Omit<ProviderPackageRequest, "model">, loadError?: unknown): string {
  const { packageName, provider, api } = request;
  const where = request.configPath ? ` in ${request.configPath}` : "";
  const what =
    loadError === undefined
      ? `needs the package ${packageName}, which is not installed`
      : `could not load the package ${packageName} (${(loadError as Error)?.message ?? String(loadError)})`;
  return `Model provider "${provider}" (models.providers.${provider}, api "${api}"${where}) ${what}. Install it next to OpenClaw with \`${providerInstallCommand(packageName, request.checkoutFolder)}\` (without -g when OpenClaw is a project dependency), or point models.providers.${provider} at an OpenAI-compatible api.`;
}

/**
 * True when `packageName` is installed where core resolves packages (without importing it): a
 * `<dir>/<packageName>/package.json` in one of the folders Node's resolution looks in from core
 * (`require.resolve.paths`). Not `require.resolve` (which starts Node's ES-module resolver for a
 * package with `exports`) nor `import.meta.resolve` (the bin's CommonJS bundle has no `import.meta`).
 */
export function isProviderPackageInstalled(packageName: string): boolean {
  const folders = createRequire(import.meta.url).resolve.paths(packageName) ?? [];
  return folders.some((dir) => existsSync(path.join(dir, packageName, "package.json")));
}

function packageError(request: ProviderPackageRequest, err: unknown): ProviderError {
  const code = (err as { code?: unknown })?.code;
  const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
  return new ProviderError({
    kind: "unknown",
    message: providerPackageMessage(request, missing ? undefined : err),
    provider: request.provider,
    model: request.model,
    cause: err,
  });
}
