import { copyFile, lstat, mkdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PLUGIN_SDK_VERSION } from "@openclaw/plugin-sdk";
import { expandUserPath, UserError, type OpenClawPaths } from "../config/index.js";
import { extensionsDir } from "./discovery.js";
import { readPluginPackage } from "./manifest.js";
import { NPM_INSTALL_FLAGS, runNpm } from "./npm.js";
import { clearPluginCache, incompatibleMessage } from "./resolve.js";
import { checkSdkRange } from "./semver.js";
import type { DiscoveredPlugin } from "./types.js";

export interface InstallPluginOptions {
  paths: OpenClawPaths;
  /** A registry name (`pkg`, `pkg@1.2.3`), a tarball path, or a local folder. */
  spec: string;
  /** Relative local specs resolve against this; default `process.cwd()`. */
  cwd?: string;
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
  /** The symlink to the host's SDK the plugin resolves. */
  sdkLink: string;
  /** Things worth telling the user (e.g. the package brought its own copy of core). */
  warnings: string[];
}

/** Folder of the host's own @openclaw/plugin-sdk package (real path). */
export async function hostSdkDir(): Promise<string> {
  const require = createRequire(import.meta.url);
  return realpath(path.dirname(require.resolve("@openclaw/plugin-sdk/package.json")));
}

/**
 * Points `<extensions>/node_modules/@openclaw/plugin-sdk` at the host's SDK folder, replacing
 * whatever npm left there, so every installed plugin imports the host's SDK (one copy).
 */
export async function linkHostSdk(extDir: string): Promise<string> {
  const link = path.join(extDir, "node_modules", "@openclaw", "plugin-sdk");
  const target = await hostSdkDir();
  await mkdir(path.dirname(link), { recursive: true });
  try {
    const info = await lstat(link);
    if (info.isSymbolicLink() && (await realpath(link).catch(() => "")) === target) return link;
    await rm(link, { recursive: true, force: true });
  } catch {
    // Nothing there yet.
  }
  await symlink(target, link, process.platform === "win32" ? "junction" : "dir");
  return link;
}

type SpecKind = "folder" | "tarball" | "registry";

function classifySpec(spec: string): SpecKind {
  if (/\.(tgz|tar\.gz|tar)$/i.test(spec) && !/^https?:/i.test(spec)) return "tarball";
  if (/^(\.{1,2}([/\\]|$)|[/\\]|~[/\\]|file:|[a-zA-Z]:[/\\])/.test(spec)) return "folder";
  return "registry";
}

/** The package name of a registry spec (`name`, `name@range`, `@scope/name@tag`). */
function registryName(spec: string): string | undefined {
  return /^(@[^/@\s]+\/[^@\s]+|[^@/\s][^@/\s]*)(?:@.*)?$/.exec(spec)?.[1];
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function dependencies(extDir: string): Promise<Record<string, string>> {
  const pkg = await readJson(path.join(extDir, "package.json"));
  return (pkg?.dependencies ?? {}) as Record<string, string>;
}

/** Which dependency the install added or changed. */
function installedName(
  before: Record<string, string>,
  after: Record<string, string>,
  expected: string | undefined,
  spec: string,
): string | undefined {
  if (expected && after[expected] !== undefined) return expected;
  const changed = Object.keys(after).filter((k) => before[k] !== after[k]);
  if (changed.length === 1) return changed[0];
  const base = path.basename(spec);
  return Object.keys(after).find((k) => after[k]!.endsWith(base));
}

/**
 * Installs a plugin package into `<stateDir>/extensions` with npm (`--omit=dev
 * --legacy-peer-deps`, so peers such as the SDK are not installed; local folders are copied, not
 * linked), links the host's @openclaw/plugin-sdk into it, then checks the package: one that is
 * not an OpenClaw plugin, has a broken manifest, or declares an SDK range that excludes the
 * host's version is removed again (a previous install of the same package is restored) and a
 * `UserError` explains why. Clears the discovery cache.
 */
export async function installPlugin(options: InstallPluginOptions): Promise<InstallPluginResult> {
  const cwd = options.cwd ?? process.cwd();
  const extDir = extensionsDir(options.paths.stateDir);
  await mkdir(extDir, { recursive: true, mode: 0o700 });
  const manifestFile = path.join(extDir, "package.json");
  if (!(await readJson(manifestFile))) {
    await writeFile(
      manifestFile,
      `${JSON.stringify({ private: true, description: "OpenClaw plugins installed by `openclaw plugins install`." }, null, 2)}\n`,
    );
  }
  const kind = classifySpec(options.spec);
  let spec = options.spec;
  let expected: string | undefined;
  if (kind === "registry") {
    expected = registryName(spec);
  } else {
    const local = path.resolve(cwd, expandUserPath(spec.replace(/^file:/, "")));
    spec = local;
    if (kind === "folder") {
      const pkg = await readJson(path.join(local, "package.json"));
      if (!pkg)
        throw new UserError(
          `${local} has no package.json; point \`openclaw plugins install\` at a plugin package folder, a tarball or a package name.`,
        );
      expected = typeof pkg.name === "string" ? pkg.name : undefined;
    }
  }

  const before = await dependencies(extDir);
  const backups = await backupInstallState(extDir);
  try {
    return await installAndCheck(options, { extDir, kind, spec, expected, before, backups });
  } finally {
    await cleanupBackups(backups);
  }
}

interface InstallState {
  extDir: string;
  kind: SpecKind;
  spec: string;
  expected: string | undefined;
  before: Record<string, string>;
  backups: Backups;
}

async function installAndCheck(options: InstallPluginOptions, state: InstallState): Promise<InstallPluginResult> {
  const { extDir, kind, spec, expected, before, backups } = state;
  const manifestFile = path.join(extDir, "package.json");
  const npmOptions = {
    cwd: extDir,
    ...(options.npm ? { npm: options.npm } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  };
  const args = ["install", "--prefix", extDir, ...NPM_INSTALL_FLAGS, ...(kind === "folder" ? ["--install-links"] : []), spec];
  const run = await runNpm(args, npmOptions).catch((err: Error) => {
    throw new UserError(`Could not run npm (${err.message}); OpenClaw installs plugins with npm, so install Node.js's npm and try again.`);
  });
  if (run.code !== 0) {
    await linkHostSdk(extDir);
    throw new UserError(
      `npm could not install ${options.spec} (exit code ${run.code}):\n${run.output.trim().split("\n").slice(-15).join("\n")}`,
    );
  }
  const after = await dependencies(extDir);
  const name = installedName(before, after, expected, spec);
  const sdkLink = await linkHostSdk(extDir);
  if (!name) throw new UserError(`npm installed ${options.spec}, but OpenClaw cannot tell which package it was; check ${manifestFile}.`);

  const refuse = async (why: string): Promise<never> => {
    const restored = await undoInstall(extDir, name, before[name] !== undefined, backups, npmOptions);
    clearPluginCache();
    throw new UserError(`${why}\n${restored}`);
  };
  const result = await readPluginPackage(path.join(extDir, "node_modules", name), "extensions");
  if (result.kind === "none") {
    return refuse(
      `${name} is not an OpenClaw plugin: its package.json has no "openclaw.plugin" block (a plugin declares { "openclaw": { "plugin": { "id", "kind": "channel", "channels", "entry", "sdk" } } }).`,
    );
  }
  if (result.kind === "broken") return refuse(`${name} cannot be used: ${result.problem.message.replace(/ Fix: .*$/, "")}`);
  const plugin = result.plugin;
  const host = options.hostSdkVersion ?? PLUGIN_SDK_VERSION;
  const compat = await checkSdkRange(plugin.manifest.sdk, host);
  if (!compat.compatible) return refuse(incompatibleMessage({ ...plugin, shadowed: [] }, host, compat));

  const warnings: string[] = [];
  if ((await readJson(path.join(extDir, "node_modules", "@openclaw", "core", "package.json"))) !== undefined) {
    warnings.push(
      `${name} pulled in its own copy of @openclaw/core; a plugin should depend only on @openclaw/plugin-sdk (as a peer dependency).`,
    );
  }
  clearPluginCache();
  return { plugin, extensionsDir: extDir, sdkLink, warnings };
}

interface Backups {
  files: { file: string; copy: string }[];
}

async function backupInstallState(extDir: string): Promise<Backups> {
  const files: Backups["files"] = [];
  for (const name of ["package.json", "package-lock.json"]) {
    const file = path.join(extDir, name);
    const copy = `${file}.openclaw-install-backup`;
    try {
      await copyFile(file, copy);
      files.push({ file, copy });
    } catch {
      // Not there yet.
    }
  }
  return { files };
}

/** Removes a refused package; when it replaced an earlier install, restores that one. */
async function undoInstall(
  extDir: string,
  name: string,
  wasInstalled: boolean,
  backups: Backups,
  npmOptions: Parameters<typeof runNpm>[1],
): Promise<string> {
  let message: string;
  if (wasInstalled) {
    for (const b of backups.files) await copyFile(b.copy, b.file);
    const run = await runNpm(["install", "--prefix", extDir, ...NPM_INSTALL_FLAGS], npmOptions);
    message =
      run.code === 0
        ? `The previously installed ${name} was restored.`
        : `Restoring the previous ${name} failed; reinstall it with \`openclaw plugins install ${name}\`.`;
  } else {
    const run = await runNpm(["uninstall", "--prefix", extDir, ...NPM_INSTALL_FLAGS, name], npmOptions);
    message =
      run.code === 0
        ? `Nothing was installed (${name} was removed again).`
        : `Removing ${name} failed; delete ${path.join(extDir, "node_modules", name)} by hand.`;
  }
  await linkHostSdk(extDir);
  return message;
}

async function cleanupBackups(backups: Backups): Promise<void> {
  await Promise.all(backups.files.map((b) => rm(b.copy, { force: true })));
}
