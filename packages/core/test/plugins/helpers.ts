import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenClawPaths } from "../../src/config/index.js";

/** The fixture plugin packages (see fixtures/plugins/README.md). */
export const FIXTURES = fileURLToPath(new URL("../fixtures/plugins/", import.meta.url));
export const fixture = (name: string) => path.join(FIXTURES, name);

/** The host's own SDK package folder (a workspace package). */
export const HOST_SDK = fileURLToPath(new URL("../../../plugin-sdk/", import.meta.url)).replace(/\/$/, "");

/** What Node resolves package `name` to from inside `dir` (real path of the package folder). */
export const resolvedFrom = (dir: string, name: string) =>
  realpathSync(path.dirname(createRequire(path.join(dir, "package.json")).resolve(`${name}/package.json`)));

/** The zod the host's SDK uses (real path): what installed plugins must resolve. */
export const HOST_ZOD = resolvedFrom(HOST_SDK, "zod");

export interface Sandbox {
  root: string;
  paths: OpenClawPaths;
  /** A project folder with no package.json of its own yet. */
  project: string;
  /** An empty host package.json, so core's real dependencies do not leak into a test. */
  hostPackageJson: string;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(path.join(tmpdir(), "openclaw-plugins-"));
  const stateDir = path.join(root, "state");
  const project = path.join(root, "project");
  const host = path.join(root, "host");
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(host, { recursive: true });
  const hostPackageJson = path.join(host, "package.json");
  writeFileSync(hostPackageJson, JSON.stringify({ name: "@openclaw/core", version: "0.0.0" }));
  return {
    root,
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    project,
    hostPackageJson,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface FakePackage {
  name: string;
  version?: string;
  /** The `openclaw.plugin` block; omit for an ordinary package. */
  plugin?: Record<string, unknown>;
  /** openclaw.plugin.json; default derived from `plugin`; null to leave it out. */
  manifest?: Record<string, unknown> | null;
}

/** Writes a plugin-shaped package (code never imported by discovery) into `dir`. */
export function writePackage(dir: string, pkg: FakePackage): string {
  mkdirSync(dir, { recursive: true });
  const json: Record<string, unknown> = { name: pkg.name, version: pkg.version ?? "1.0.0", type: "module" };
  if (pkg.plugin) json.openclaw = { plugin: pkg.plugin };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(json, null, 2));
  writeFileSync(path.join(dir, "index.js"), 'throw new Error("discovery must not import plugin code");\n');
  const manifest =
    pkg.manifest === undefined && pkg.plugin
      ? { id: pkg.plugin.id, channels: pkg.plugin.channels, configSchema: { type: "object" } }
      : pkg.manifest;
  if (manifest) writeFileSync(path.join(dir, "openclaw.plugin.json"), JSON.stringify(manifest));
  return dir;
}

/** A valid `openclaw.plugin` block for channel plugin `id`. */
export const pluginBlock = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  kind: "channel",
  channels: [id],
  entry: "./index.js",
  sdk: "^0.1.0",
  ...extra,
});

/** A project folder with a package.json depending on `deps` and a node_modules holding them. */
export function writeProject(dir: string, deps: Record<string, FakePackage>): void {
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "my-project", private: true, dependencies: Object.fromEntries(Object.keys(deps).map((n) => [n, "*"])) }),
  );
  for (const [name, pkg] of Object.entries(deps)) writePackage(path.join(dir, "node_modules", name), pkg);
}

/** Copies a fixture into `node_modules/<name>` under `dir` and links the host SDK beside it. */
export function installFixtureCopy(nodeModules: string, fixtureName: string, packageName: string): string {
  const dest = path.join(nodeModules, packageName);
  cpSync(fixture(fixtureName), dest, { recursive: true });
  mkdirSync(path.join(nodeModules, "@openclaw"), { recursive: true });
  try {
    symlinkSync(HOST_SDK, path.join(nodeModules, "@openclaw", "plugin-sdk"), "dir");
  } catch {
    // Already linked.
  }
  return dest;
}
