import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { PLUGIN_SDK_VERSION } from "@openclaw/plugin-sdk";
import { UserError, type OpenClawPaths } from "../config/index.js";
import {
  backupManifests,
  discardBackup,
  ensureExtensionsDir,
  type InstallRecord,
  packedDir,
  prunePackedTarballs,
  readExtensionsManifest,
  reinstallCommand,
  restoreManifests,
  writeInstallRecord,
} from "./extensions-store.js";
import { coreCheckoutRoot } from "./first-party.js";
import { linkHostPackages } from "./host-links.js";
import { type InstallSource, resolveInstallSource } from "./install-source.js";
import { readPluginPackage } from "./manifest.js";
import { packageField, readPackageJson } from "./package-json.js";
import { NPM_INSTALL_FLAGS, NPM_QUIET_FLAGS, npmFailure, runNpm, type NpmOptions } from "./npm.js";
import { clearPluginCache, incompatibleMessage } from "./resolve.js";
import { checkSdkRange } from "./semver.js";
import type { DiscoveredPlugin } from "./types.js";

export interface InstallPluginOptions {
  paths: OpenClawPaths;
  /**
   * A first-party channel's short name (its id), a plugin folder, a `.tgz` tarball, or a
   * registry spec outside the `@openclaw` scope (`openclaw-chatterbox@1.2.0`).
   */
  spec: string;
  /** Relative paths resolve against this; default `process.cwd()`. */
  cwd?: string;
  /** The checkout first-party channels are installed from; default the one the running core belongs to. */
  checkoutRoot?: string;
  /** The npm executable; default `npm` from PATH. */
  npm?: string;
  env?: NodeJS.ProcessEnv;
  /** Default `PLUGIN_SDK_VERSION`. */
  hostSdkVersion?: string;
  /** Receives npm's output as it runs. */
  onOutput?: (text: string) => void;
}

export interface InstallPluginResult {
  plugin: DiscoveredPlugin;
  /** `<stateDir>/extensions`. */
  extensionsDir: string;
  /** The link to the host's SDK the plugin resolves. */
  sdkLink: string;
  /** The link to the host's zod the plugin resolves. */
  zodLink: string;
  /** Where it was installed from (kept in `<extensions>/package.json`). */
  record: InstallRecord;
  /** Things worth telling the user (e.g. the package brought its own copy of core). */
  warnings: string[];
}

const notAPlugin = (name: string) =>
  `${name} is not an OpenClaw plugin: its package.json has no "openclaw.plugin" block (a plugin declares { "openclaw": { "plugin": { "id", "kind": "channel", "channels", "entry", "sdk" } } }).`;

const withoutFix = (message: string) => message.replace(/ Fix: .*$/, "");

/**
 * A plugin folder is checked before anything is packed: it must be a plugin, with a valid
 * manifest, built (its entry exists), for this SDK. Returns its package name.
 */
async function checkFolder(source: Extract<InstallSource, { kind: "folder" }>, host: string): Promise<string> {
  const result = await readPluginPackage(source.dir, "path");
  const build = source.firstParty
    ? `build it with \`pnpm --filter ${source.firstParty.packageName} build\` in the checkout`
    : `fix or build it in ${source.dir} (e.g. \`npm run build\`)`;
  if (result.kind === "none") {
    const name = await packageField(source.dir, "name");
    throw new UserError(`${notAPlugin(name ? `${name} (${source.dir})` : source.dir)} Nothing was installed.`);
  }
  if (result.kind === "broken")
    throw new UserError(`${source.dir} cannot be installed: ${withoutFix(result.problem.message)}. Fix: ${build}. Nothing was installed.`);
  const compat = await checkSdkRange(result.plugin.manifest.sdk, host);
  if (!compat.compatible)
    throw new UserError(`${incompatibleMessage({ ...result.plugin, shadowed: [] }, host, compat)}\nNothing was installed.`);
  return result.plugin.packageName;
}

/** Keeps a copy of `file` in `<extensions>/packages`, named by its content, and returns its path. */
async function keepTarball(extDir: string, file: string): Promise<string> {
  const hash = createHash("sha256")
    .update(await readFile(file))
    .digest("hex")
    .slice(0, 12);
  const ext = /\.(tgz|tar\.gz|tar)$/i.exec(file)?.[0] ?? ".tgz";
  const dest = path.join(packedDir(extDir), `${path.basename(file).slice(0, -ext.length)}-${hash}${ext}`);
  await mkdir(packedDir(extDir), { recursive: true });
  await copyFile(file, dest);
  return dest;
}

/** Packs a folder as npm would publish it (its `files`, no scripts run) into `<extensions>/packages`. */
async function packFolder(extDir: string, dir: string, npm: NpmOptions): Promise<string> {
  await mkdir(packedDir(extDir), { recursive: true });
  const tmp = await mkdtemp(path.join(packedDir(extDir), ".pack-"));
  try {
    const run = await runNpm(["pack", dir, "--pack-destination", tmp, "--ignore-scripts", "--loglevel=warn", ...NPM_QUIET_FLAGS], npm);
    const tarball = (await readdir(tmp)).find((n) => n.endsWith(".tgz"));
    if (run.code !== 0 || !tarball) {
      throw npmFailure(`pack ${dir}`, run);
    }
    return await keepTarball(extDir, path.join(tmp, tarball));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Which dependency the install added or changed. */
function installedName(
  before: Record<string, string>,
  after: Record<string, string>,
  expected: string | undefined,
  target: string,
): string | undefined {
  if (expected && after[expected] !== undefined) return expected;
  const changed = Object.keys(after).filter((k) => before[k] !== after[k]);
  if (changed.length === 1) return changed[0];
  const base = path.basename(target);
  return Object.keys(after).find((k) => after[k]!.endsWith(base));
}

function recordOf(source: InstallSource): InstallRecord["kind"] {
  if (source.kind === "folder") return source.firstParty ? "first-party" : "folder";
  return source.kind;
}

/**
 * Installs a plugin into `<stateDir>/extensions`. A folder is packed (as `npm pack` would, without
 * running its scripts) and a tarball copied into `<extensions>/packages`; npm installs that copy
 * (`--omit=dev --legacy-peer-deps`: peers such as the SDK and zod are not installed), so nothing
 * ever links back to the author's folder. Then the host's @openclaw/plugin-sdk and zod are linked
 * in and the package is checked: one that is not an OpenClaw plugin, has a broken manifest, or
 * declares an SDK range that excludes the host's version is removed again (a previous install of
 * the same package is restored) and a `UserError` explains why. A folder is checked before it is
 * packed. Clears the discovery cache.
 */
export async function installPlugin(options: InstallPluginOptions): Promise<InstallPluginResult> {
  const host = options.hostSdkVersion ?? PLUGIN_SDK_VERSION;
  const source = await resolveInstallSource(options.spec, {
    cwd: options.cwd ?? process.cwd(),
    checkoutRoot: options.checkoutRoot ?? coreCheckoutRoot(),
  });
  const expected = source.kind === "folder" ? await checkFolder(source, host) : source.kind === "registry" ? source.name : undefined;
  const extDir = await ensureExtensionsDir(options.paths.stateDir);
  const npm: NpmOptions = {
    cwd: extDir,
    ...(options.npm ? { npm: options.npm } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  };
  const backup = await backupManifests(extDir);
  try {
    return await installAndCheck({ options, source, expected, extDir, npm, backup, host });
  } finally {
    await discardBackup(backup);
    await prunePackedTarballs(extDir);
  }
}

interface InstallState {
  options: InstallPluginOptions;
  source: InstallSource;
  expected: string | undefined;
  extDir: string;
  npm: NpmOptions;
  backup: Awaited<ReturnType<typeof backupManifests>>;
  host: string;
}

async function installAndCheck(state: InstallState): Promise<InstallPluginResult> {
  const { options, source, expected, extDir, npm, backup, host } = state;
  const before = (await readExtensionsManifest(extDir)).dependencies;
  const target =
    source.kind === "registry"
      ? source.spec
      : source.kind === "tarball"
        ? await keepTarball(extDir, source.file)
        : await packFolder(extDir, source.dir, npm);
  const run = await runNpm(["install", "--prefix", extDir, ...NPM_INSTALL_FLAGS, target], npm);
  if (run.code !== 0) {
    await linkHostPackages(extDir);
    throw npmFailure(`install ${options.spec}`, run);
  }
  const after = (await readExtensionsManifest(extDir)).dependencies;
  const name = installedName(before, after, expected, target);
  const links = await linkHostPackages(extDir);
  if (!name)
    throw new UserError(
      `npm installed ${options.spec}, but OpenClaw cannot tell which package it was; check ${path.join(extDir, "package.json")}.`,
    );

  const refuse = async (why: string): Promise<never> => {
    const restored = await undoInstall(extDir, name, before[name] !== undefined, backup, npm);
    clearPluginCache();
    throw new UserError(`${why}\n${restored}`);
  };
  const result = await readPluginPackage(path.join(extDir, "node_modules", name), "extensions");
  if (result.kind === "none") return refuse(notAPlugin(name));
  if (result.kind === "broken") return refuse(`${name} cannot be used: ${withoutFix(result.problem.message)}`);
  const plugin = result.plugin;
  const compat = await checkSdkRange(plugin.manifest.sdk, host);
  if (!compat.compatible) return refuse(incompatibleMessage({ ...plugin, shadowed: [] }, host, compat));

  const record: InstallRecord = {
    id: plugin.id,
    kind: recordOf(source),
    from: source.kind === "folder" ? (source.firstParty?.id ?? source.dir) : source.kind === "tarball" ? source.file : source.spec,
  };
  await writeInstallRecord(extDir, name, record);
  const warnings = [...links.warnings];
  if (await readPackageJson(path.join(extDir, "node_modules", "@openclaw", "core"))) {
    warnings.push(
      `${name} pulled in its own copy of @openclaw/core; a plugin should depend only on @openclaw/plugin-sdk and zod (as peer dependencies).`,
    );
  }
  clearPluginCache();
  return { plugin, extensionsDir: extDir, sdkLink: links.sdkLink, zodLink: links.zodLink, record, warnings };
}

/** Removes a refused package; when it replaced an earlier install, restores that one. */
async function undoInstall(
  extDir: string,
  name: string,
  wasInstalled: boolean,
  backup: Awaited<ReturnType<typeof backupManifests>>,
  npm: NpmOptions,
): Promise<string> {
  let message: string;
  if (wasInstalled) {
    await restoreManifests(backup);
    const run = await runNpm(["install", "--prefix", extDir, ...NPM_INSTALL_FLAGS], npm);
    const record = (await readExtensionsManifest(extDir)).installs[name];
    message =
      run.code === 0
        ? `The previously installed ${name} was restored.`
        : `Restoring the previous ${name} failed; reinstall it with \`${reinstallCommand(name, record)}\`.`;
  } else {
    const run = await runNpm(["uninstall", "--prefix", extDir, ...NPM_INSTALL_FLAGS, name], npm);
    message =
      run.code === 0
        ? `Nothing was installed (${name} was removed again).`
        : `Removing ${name} failed; delete ${path.join(extDir, "node_modules", name)} by hand.`;
  }
  await linkHostPackages(extDir);
  return message;
}
