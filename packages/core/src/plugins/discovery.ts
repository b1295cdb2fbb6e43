import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ExtensionsManifest, extensionsDir, readExtensionsManifest, reinstallCommand } from "./extensions-store.js";
import { readPluginPackage } from "./manifest.js";
import type { BrokenPlugin, DiscoveredPlugin, PluginProblem, PluginSource, ShadowedPlugin } from "./types.js";

export { extensionsDir } from "./extensions-store.js";

/** package.json of @openclaw/core itself (two levels above this file in src/ and in dist/). */
export const HOST_PACKAGE_JSON = fileURLToPath(new URL("../../package.json", import.meta.url));

export interface DiscoverOptions {
  stateDir: string;
  /** `plugins.load.paths`, already absolute. */
  loadPaths: readonly string[];
  /** Where the nearest project package.json is searched from. */
  cwd: string;
  /** A host package.json whose dependencies are searched too; default @openclaw/core's own. */
  hostPackageJson?: string;
}

export interface DiscoveredWithShadows extends DiscoveredPlugin {
  shadowed: ShadowedPlugin[];
}

export interface Discovery {
  /** One per id, the highest-precedence one, sorted by id. */
  plugins: DiscoveredWithShadows[];
  problems: PluginProblem[];
  /** Packages that cannot load (broken manifest, missing files, vanished install); also in `problems`. */
  broken: BrokenPlugin[];
}

interface Candidate {
  dir: string;
  source: PluginSource;
}

async function isDir(p: string): Promise<boolean> {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Package folders in a node_modules-like folder: `name/` and `@scope/name/`; dot entries skipped. */
async function packageFolders(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  await Promise.all(
    names
      .filter((n) => !n.startsWith("."))
      .sort()
      .map(async (name) => {
        const full = path.join(dir, name);
        if (name.startsWith("@")) {
          let scoped: string[] = [];
          try {
            scoped = readdirSync(full);
          } catch {
            return;
          }
          for (const s of scoped.sort()) if (!s.startsWith(".")) out.push(path.join(full, s));
        } else {
          out.push(full);
        }
      }),
  );
  return out.sort();
}

/** The nearest package.json at or above `start`, or undefined. */
async function nearestPackageJson(start: string): Promise<string | undefined> {
  let dir = path.resolve(start);
  for (;;) {
    const file = path.join(dir, "package.json");
    if (await exists(file)) return file;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Names in the dependencies of a package.json: dependencies, optionalDependencies, and (for the
 * user's project, not for the installed host package whose dev dependencies are never installed)
 * devDependencies.
 */
async function dependencyNames(file: string, includeDev = true): Promise<string[]> {
  try {
    const pkg = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const names = new Set<string>();
    for (const field of includeDev
      ? ["dependencies", "devDependencies", "optionalDependencies"]
      : ["dependencies", "optionalDependencies"]) {
      const deps = pkg[field];
      if (deps && typeof deps === "object") for (const n of Object.keys(deps)) names.add(n);
    }
    return [...names];
  } catch {
    return [];
  }
}

/** Folder of dependency `name` as Node would find it from `fromDir` (walking up node_modules). */
async function resolveDependencyDir(name: string, fromDir: string): Promise<string | undefined> {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, "node_modules", name);
    if (await exists(path.join(candidate, "package.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

async function dependencyCandidates(packageJson: string, includeDev = true): Promise<string[]> {
  const from = path.dirname(packageJson);
  const names = await dependencyNames(packageJson, includeDev);
  const dirs = await Promise.all(names.sort().map((n) => resolveDependencyDir(n, from)));
  return dirs.filter((d): d is string => d !== undefined);
}

async function loadPathCandidates(loadPath: string, problems: PluginProblem[]): Promise<string[]> {
  if (!(await isDir(loadPath))) {
    problems.push({
      level: "warning",
      file: loadPath,
      message: `plugins.load.paths: ${loadPath} is not a folder; fix the path or remove it.`,
    });
    return [];
  }
  if (await exists(path.join(loadPath, "package.json"))) return [loadPath];
  return packageFolders(loadPath);
}

/**
 * Installed packages (listed in `<extensions>/package.json`) whose folder is gone: npm's record
 * says they are there, so they are reported rather than silently skipped.
 */
async function vanishedInstalls(extDir: string, manifest: ExtensionsManifest): Promise<BrokenPlugin[]> {
  const out: BrokenPlugin[] = [];
  for (const name of Object.keys(manifest.dependencies).sort()) {
    const dir = path.join(extDir, "node_modules", ...name.split("/"));
    if (await exists(path.join(dir, "package.json"))) continue;
    const record = manifest.installs[name];
    const file = path.join(extDir, "package.json");
    out.push({
      ...(record ? { id: record.id } : {}),
      packageName: name,
      source: "extensions",
      rootDir: dir,
      problem: {
        level: "error",
        file,
        ...(record ? { pluginId: record.id } : {}),
        message: `${name}${record ? ` (plugin "${record.id}")` : ""} is installed (listed in ${file}) but its folder ${dir} is missing. Fix: reinstall it with \`${reinstallCommand(name, record, manifest.dependencies[name])}\`, or remove it with \`openclaw plugins uninstall ${name}\`.`,
      },
    });
  }
  return out;
}

/**
 * Finds plugin packages without executing them, in precedence order: each folder of
 * `plugins.load.paths` (a plugin folder, or a folder of plugin folders), then
 * `<stateDir>/extensions/node_modules`, then the dependencies of the nearest project
 * package.json above `cwd` and of the host package (resolved through node_modules). When two
 * packages have the same id the first wins; the others are listed in its `shadowed`.
 */
export async function discoverPlugins(options: DiscoverOptions): Promise<Discovery> {
  const problems: PluginProblem[] = [];
  const projectJson = await nearestPackageJson(options.cwd);
  const hostJson = options.hostPackageJson ?? HOST_PACKAGE_JSON;
  const extDir = extensionsDir(options.stateDir);
  const [pathDirs, extensionDirs, projectDirs, hostDirs, installed] = await Promise.all([
    Promise.all(options.loadPaths.map((p) => loadPathCandidates(p, problems))).then((l) => l.flat()),
    packageFolders(path.join(extDir, "node_modules")),
    projectJson ? dependencyCandidates(projectJson) : Promise.resolve([]),
    projectJson && path.resolve(projectJson) === path.resolve(hostJson) ? Promise.resolve([]) : dependencyCandidates(hostJson, false),
    readExtensionsManifest(extDir),
  ]);
  const candidates: Candidate[] = [
    ...pathDirs.map((dir) => ({ dir, source: "path" as const })),
    ...extensionDirs.map((dir) => ({ dir, source: "extensions" as const })),
    ...[...projectDirs, ...hostDirs].map((dir) => ({ dir, source: "dependency" as const })),
  ];
  const results = await Promise.all(candidates.map((c) => readPluginPackage(c.dir, c.source)));

  const byId = new Map<string, DiscoveredWithShadows>();
  const seenRoots = new Set<string>();
  const brokenFiles = new Set<string>();
  const broken: BrokenPlugin[] = [];
  for (const [i, result] of results.entries()) {
    if (result.kind === "none") continue;
    if (result.kind === "broken") {
      const key = result.problem.file ?? result.problem.message;
      if (brokenFiles.has(key)) continue;
      brokenFiles.add(key);
      problems.push(result.problem);
      broken.push({
        ...(result.problem.pluginId ? { id: result.problem.pluginId } : {}),
        packageName: result.packageName ?? path.basename(result.rootDir),
        ...(result.version ? { version: result.version } : {}),
        source: candidates[i]!.source,
        rootDir: result.rootDir,
        problem: result.problem,
      });
      continue;
    }
    const record = result.plugin.source === "extensions" ? installed.installs[result.plugin.packageName] : undefined;
    const plugin: DiscoveredPlugin = record ? { ...result.plugin, installedFrom: record } : result.plugin;
    if (seenRoots.has(plugin.rootDir)) continue;
    seenRoots.add(plugin.rootDir);
    const winner = byId.get(plugin.id);
    if (winner) {
      winner.shadowed.push({ packageName: plugin.packageName, version: plugin.version, source: plugin.source, rootDir: plugin.rootDir });
    } else {
      byId.set(plugin.id, { ...plugin, shadowed: [] });
    }
  }
  const plugins = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  const vanished = await vanishedInstalls(extDir, installed);
  problems.push(...vanished.map((b) => b.problem));
  broken.push(...vanished);
  broken.sort((a, b) => (a.id ?? a.packageName).localeCompare(b.id ?? b.packageName));
  return { plugins, problems, broken };
}
