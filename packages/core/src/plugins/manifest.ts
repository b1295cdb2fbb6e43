import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { loadSemver } from "./semver.js";
import type { DiscoveredPlugin, PluginProblem, PluginSource } from "./types.js";
import { parseJson5Value } from "../config/io/json5-text.js";

/** File name of the manifest that sits beside package.json. */
export const MANIFEST_FILE = "openclaw.plugin.json";

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const idSchema = z.string().regex(ID, "must be lowercase letters, digits, '-' and '_' (at most 64), starting with a letter or digit");
const relativePath = z.string().min(1, "must be a path inside the package, e.g. ./dist/index.js");

/** `openclaw.plugin` in package.json. Unknown keys are ignored (newer plugins may add some). */
const pluginBlockSchema = z.object({
  id: idSchema,
  kind: z.literal("channel"),
  channels: z.array(idSchema).min(1, "must list at least one channel id"),
  entry: relativePath,
  configEntry: relativePath.optional(),
  sdk: z.string().min(1, 'must be a semver range of @openclaw/plugin-sdk, e.g. "^0.1.0"'),
});

const packageSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  openclaw: z.object({ plugin: pluginBlockSchema }),
});

const manifestFileSchema = z.object({
  id: idSchema,
  channels: z.array(idSchema).optional(),
  configSchema: z.record(z.string(), z.unknown()),
});

function removeHint(source: PluginSource, name: string | undefined): string {
  switch (source) {
    case "path":
      return "remove its folder from plugins.load.paths";
    case "extensions":
      return `reinstall it, or remove it with \`openclaw plugins uninstall ${name ?? "<package>"}\``;
    case "dependency":
      return "remove it from your project's dependencies";
  }
}

/** A package that declares itself a plugin but cannot be used; what is known of it. */
export interface BrokenPackage {
  kind: "broken";
  /** The error, naming the file and the field, with the fix. */
  problem: PluginProblem;
  /** Real path of the package folder (as given when it cannot be resolved). */
  rootDir: string;
  packageName?: string;
  version?: string;
}

export type ReadPluginResult = { kind: "none" } | { kind: "plugin"; plugin: DiscoveredPlugin } | BrokenPackage;

function valueAt(root: unknown, keys: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const k of keys) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

function fieldName(keys: readonly PropertyKey[]): string {
  return keys.map((k, i) => (typeof k === "number" ? `[${k}]` : `${i ? "." : ""}${String(k)}`)).join("") || "(root)";
}

/** The first zod issue as "<field> <what is wrong>", reading the bad value from `raw`. */
function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const field = fieldName(issue.path);
  const actual = valueAt(raw, issue.path);
  if (issue.code === "invalid_type" && actual === undefined) return `${field} is missing (expected ${issue.expected})`;
  if (issue.code === "invalid_type")
    return `${field} must be ${issue.expected === "array" ? "an" : "a"} ${issue.expected}, got ${JSON.stringify(actual)}`;
  if (issue.code === "invalid_value")
    return `${field} must be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}, got ${JSON.stringify(actual)}`;
  return `${field} ${issue.message}${actual !== undefined && typeof actual !== "object" ? ` (got ${JSON.stringify(actual)})` : ""}`;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

/** A path from the manifest, resolved inside the package; undefined when it escapes it. */
function insidePackage(rootDir: string, rel: string): string | undefined {
  if (path.isAbsolute(rel)) return undefined;
  const abs = path.resolve(rootDir, rel);
  const back = path.relative(rootDir, abs);
  return back.startsWith("..") || path.isAbsolute(back) ? undefined : abs;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads the package in `dir` as a plugin candidate WITHOUT executing any of its code.
 * `none`: no package.json, or no `openclaw.plugin` block (an ordinary package).
 * `broken`: the block, `openclaw.plugin.json`, or a file they name is wrong; the problem names
 * the file and the field.
 */
export async function readPluginPackage(dir: string, source: PluginSource): Promise<ReadPluginResult> {
  let rootDir: string;
  try {
    rootDir = realpathSync(dir);
  } catch {
    return { kind: "none" };
  }
  const packageJsonPath = path.join(rootDir, "package.json");
  let text: string | undefined;
  try {
    text = await readText(packageJsonPath);
  } catch (err) {
    return {
      kind: "broken",
      rootDir,
      problem: {
        level: "error",
        file: packageJsonPath,
        message: `${packageJsonPath} cannot be read (${(err as Error).message}). Fix: repair the file's permissions, or ${removeHint(source, path.basename(rootDir))}.`,
      },
    };
  }
  if (text === undefined) return { kind: "none" };
  // Cheap test before parsing: most dependencies are not plugins.
  if (!text.includes('"openclaw"')) return { kind: "none" };
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return { kind: "none" };
  }
  if (valueAt(pkg, ["openclaw", "plugin"]) === undefined) return { kind: "none" };

  const rawName = valueAt(pkg, ["name"]);
  const rawVersion = valueAt(pkg, ["version"]);
  const rawId = valueAt(pkg, ["openclaw", "plugin", "id"]);
  const known = {
    rootDir,
    ...(typeof rawName === "string" ? { packageName: rawName } : {}),
    ...(typeof rawVersion === "string" ? { version: rawVersion } : {}),
  };
  const broken = (message: string, file = packageJsonPath, pluginId = typeof rawId === "string" ? rawId : undefined): ReadPluginResult => ({
    kind: "broken",
    ...known,
    problem: {
      level: "error",
      file,
      message: `${file}: invalid OpenClaw plugin manifest: ${message}. Fix: correct the plugin package, or ${removeHint(source, known.packageName)}.`,
      ...(pluginId ? { pluginId } : {}),
    },
  });

  const parsed = packageSchema.safeParse(pkg);
  if (!parsed.success) return broken(describeIssue(parsed.error.issues[0]!, pkg));
  const { name, version } = parsed.data;
  const block = parsed.data.openclaw.plugin;
  const semver = await loadSemver();
  if (!semver.validRange(block.sdk)) {
    return broken(
      `openclaw.plugin.sdk ${JSON.stringify(block.sdk)} is not a valid semver range (e.g. "^0.1.0")`,
      packageJsonPath,
      block.id,
    );
  }
  const entry = insidePackage(rootDir, block.entry);
  if (!entry)
    return broken(
      `openclaw.plugin.entry ${JSON.stringify(block.entry)} must be a relative path inside the package`,
      packageJsonPath,
      block.id,
    );
  if (!(await isFile(entry))) {
    return broken(`openclaw.plugin.entry ${JSON.stringify(block.entry)} does not exist (is the plugin built?)`, packageJsonPath, block.id);
  }
  let configEntry: string | undefined;
  if (block.configEntry !== undefined) {
    configEntry = insidePackage(rootDir, block.configEntry);
    if (!configEntry) {
      return broken(
        `openclaw.plugin.configEntry ${JSON.stringify(block.configEntry)} must be a relative path inside the package`,
        packageJsonPath,
        block.id,
      );
    }
    if (!(await isFile(configEntry))) {
      return broken(
        `openclaw.plugin.configEntry ${JSON.stringify(block.configEntry)} does not exist (is the plugin built?)`,
        packageJsonPath,
        block.id,
      );
    }
  }

  const manifestPath = path.join(rootDir, MANIFEST_FILE);
  let manifestText: string | undefined;
  try {
    manifestText = await readText(manifestPath);
  } catch (err) {
    return broken(`it cannot be read (${(err as Error).message})`, manifestPath, block.id);
  }
  if (manifestText === undefined) return broken(`${MANIFEST_FILE} is missing beside package.json`, packageJsonPath, block.id);
  let manifestRaw: unknown;
  try {
    manifestRaw = parseJson5Value(manifestText); // JSON.parse when it is JSON (~10 ms less per file than json5)
  } catch (err) {
    return broken(`not valid JSON5 (${(err as Error).message})`, manifestPath, block.id);
  }
  const manifest = manifestFileSchema.safeParse(manifestRaw);
  if (!manifest.success) return broken(describeIssue(manifest.error.issues[0]!, manifestRaw), manifestPath, block.id);
  if (manifest.data.id !== block.id) {
    return broken(
      `id ${JSON.stringify(manifest.data.id)} differs from openclaw.plugin.id ${JSON.stringify(block.id)} in package.json`,
      manifestPath,
      block.id,
    );
  }
  const channels = manifest.data.channels;
  if (channels && [...channels].sort().join() !== [...block.channels].sort().join()) {
    return broken(
      `channels ${JSON.stringify(channels)} differ from openclaw.plugin.channels ${JSON.stringify(block.channels)} in package.json`,
      manifestPath,
      block.id,
    );
  }

  return {
    kind: "plugin",
    plugin: {
      id: block.id,
      packageName: name,
      version,
      source,
      rootDir,
      packageJsonPath,
      manifest: {
        id: block.id,
        kind: block.kind,
        channels: block.channels,
        entry,
        ...(configEntry ? { configEntry } : {}),
        sdk: block.sdk,
        configSchema: manifest.data.configSchema,
      },
    },
  };
}
