import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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

/**
 * An author's working folder for zodchat under `home`, as it looks on their machine: node_modules
 * with their own copy of the SDK (a real, working one) and zod. A plugin that resolves these is the bug.
 */
export function authorFolder(home: string): string {
  const dir = path.join(home, "dev", "openclaw-zodchat");
  cpSync(fixture("zodchat"), dir, { recursive: true });
  const sdkCopy = path.join(dir, "node_modules", "@openclaw", "plugin-sdk");
  mkdirSync(sdkCopy, { recursive: true });
  cpSync(path.join(HOST_SDK, "dist"), path.join(sdkCopy, "dist"), { recursive: true });
  cpSync(path.join(HOST_SDK, "package.json"), path.join(sdkCopy, "package.json"));
  symlinkSync(HOST_ZOD, path.join(dir, "node_modules", "zod"), "dir");
  return dir;
}

/**
 * In a plain Node process: does the installed plugin's RateLimitedError pass `instanceof` against
 * the RateLimitedError of `hostSdkEntry` (the module the host's own code imports the SDK from)?
 */
export function hostInstanceofHolds(pluginDir: string, hostSdkEntry: string): boolean {
  const script = `
    import { RateLimitedError } from ${JSON.stringify(pathToFileURL(hostSdkEntry).href)};
    const { default: plugin } = await import(${JSON.stringify(pathToFileURL(path.join(pluginDir, "index.js")).href)});
    const stop = new AbortController();
    const ctx = { accountId: "default", account: {}, signal: stop.signal, receive: async () => {}, status: () => {}, log: console, credentialsDir: "/nonexistent", cursor: { get: () => undefined, set: () => {} } };
    const session = await plugin.connect(ctx);
    const err = await session.sendText({ chat: { kind: "direct", id: "1" } }, "hi", {}).catch((e) => e);
    stop.abort();
    process.stdout.write(String(err instanceof RateLimitedError));`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }) === "true";
}

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
