import { lstat, mkdir, realpath, rm, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packageField } from "./package-json.js";

/**
 * The packages the host provides to every installed plugin, as links in
 * `<stateDir>/extensions/node_modules`: a plugin declares them as peer dependencies and gets the
 * host's copy, so its `RateLimitedError` is the gateway's (`instanceof` holds) and its zod
 * schemas are built by the zod the SDK uses.
 */
export const HOST_PROVIDED = ["@openclaw/plugin-sdk", "zod"] as const;
export type HostProvidedPackage = (typeof HOST_PROVIDED)[number];

/**
 * Set only in the `openclaw` bin (scripts/bundle.mjs defines it as the folder of the shim packages,
 * relative to the bundle's chunks): the bin carries its own zod and SDK, and the shims there
 * re-export exactly those modules. Undefined in tsc's dist, which uses node_modules.
 */
declare const __OPENCLAW_HOST_PACKAGES__: string | undefined;

/** The bundle's shim package `<name>` (real path), or undefined when not running from the bundle. */
async function bundledShimDir(name: "zod" | "plugin-sdk"): Promise<string | undefined> {
  if (typeof __OPENCLAW_HOST_PACKAGES__ !== "string") return undefined;
  return realpath(fileURLToPath(new URL(`./${__OPENCLAW_HOST_PACKAGES__}/${name}/`, import.meta.url)));
}

/**
 * Folder of the host's own @openclaw/plugin-sdk package (real path): in the `openclaw` bin, the
 * shim package that re-exports the bin's bundled SDK; otherwise the installed package.
 */
export async function hostSdkDir(): Promise<string> {
  const shim = await bundledShimDir("plugin-sdk");
  if (shim) return shim;
  const require = createRequire(import.meta.url);
  return realpath(path.dirname(require.resolve("@openclaw/plugin-sdk/package.json")));
}

/**
 * Folder of the zod the host's SDK uses (real path): in the `openclaw` bin, the shim package that
 * re-exports the bin's bundled zod; otherwise the SDK's zod, or core's own when the SDK cannot name one.
 */
export async function hostZodDir(): Promise<string> {
  const shim = await bundledShimDir("zod");
  if (shim) return shim;
  const sdk = await hostSdkDir();
  for (const from of [path.join(sdk, "package.json"), import.meta.url]) {
    try {
      return await realpath(path.dirname(createRequire(from).resolve("zod/package.json")));
    } catch {
      // Try the next place.
    }
  }
  throw new Error("cannot find the host's zod package");
}

const major = (version: string) => version.split(".")[0];

/**
 * Points `<extDir>/node_modules/<name>` at `target`, replacing whatever npm left there. Returns a
 * warning when it replaced a real package of another major version (a plugin's dependency that
 * wanted its own copy; it now gets the host's).
 */
async function linkPackage(extDir: string, name: string, target: string): Promise<{ link: string; warning?: string }> {
  const link = path.join(extDir, "node_modules", ...name.split("/"));
  await mkdir(path.dirname(link), { recursive: true });
  let warning: string | undefined;
  try {
    const info = await lstat(link);
    if (info.isSymbolicLink() && (await realpath(link).catch(() => "")) === target) return { link };
    if (!info.isSymbolicLink()) {
      const [found, host] = await Promise.all([packageField(link, "version"), packageField(target, "version")]);
      if (found && host && major(found) !== major(host)) {
        warning = `an installed package brought ${name} ${found}; installed plugins share this OpenClaw's ${name} ${host} instead (${link}).`;
      }
    }
    await rm(link, { recursive: true, force: true });
  } catch {
    // Nothing there yet.
  }
  await symlink(target, link, process.platform === "win32" ? "junction" : "dir");
  return warning ? { link, warning } : { link };
}

export interface HostLinks {
  /** `<extDir>/node_modules/@openclaw/plugin-sdk`. */
  sdkLink: string;
  /** `<extDir>/node_modules/zod`. */
  zodLink: string;
  warnings: string[];
}

/**
 * Links the host's @openclaw/plugin-sdk and zod into `<extDir>/node_modules`, so every installed
 * plugin resolves exactly one copy of each. npm removes these links as extraneous on every
 * install or uninstall in the prefix, so this runs after each npm call.
 */
export async function linkHostPackages(extDir: string): Promise<HostLinks> {
  const [sdk, zod] = await Promise.all([hostSdkDir(), hostZodDir()]);
  const sdkLinked = await linkPackage(extDir, "@openclaw/plugin-sdk", sdk);
  const zodLinked = await linkPackage(extDir, "zod", zod);
  return {
    sdkLink: sdkLinked.link,
    zodLink: zodLinked.link,
    warnings: [sdkLinked.warning, zodLinked.warning].filter((w): w is string => w !== undefined),
  };
}
