// `<stateDir>/extensions`: the npm prefix installed plugins live in. Its package.json lists them
// (npm's `dependencies`) and remembers where each came from (our `openclaw.installs`); packed
// plugins are kept in `packages/` so that npm never needs the author's folder again.
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { firstPartyByPackage } from "./first-party.js";
import { readPackageJson } from "./package-json.js";

/** `<stateDir>/extensions`: the npm prefix `openclaw plugins install` installs into. */
export function extensionsDir(stateDir: string): string {
  return path.join(stateDir, "extensions");
}

/** `<extensions>/packages`: the tarballs installed plugins were installed from. */
export function packedDir(extDir: string): string {
  return path.join(extDir, "packages");
}

/** Where an installed plugin came from, so messages can say how to reinstall it. */
export interface InstallRecord {
  /** The plugin id at install time. */
  id: string;
  /** `first-party` (a short name), `folder`, `tarball` or `registry`. */
  kind: "first-party" | "folder" | "tarball" | "registry";
  /** What to pass to `openclaw plugins install` again: the short name, the absolute path, or the registry spec. */
  from: string;
}

export interface ExtensionsManifest {
  /** npm's `dependencies`: package name -> spec (`file:packages/<tarball>` or a registry range). */
  dependencies: Record<string, string>;
  /** package name -> where it was installed from. */
  installs: Record<string, InstallRecord>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The dependencies and install records of `<extDir>/package.json`; empty when it is missing or unreadable. */
export async function readExtensionsManifest(extDir: string): Promise<ExtensionsManifest> {
  const pkg = (await readPackageJson(extDir)) ?? {};
  const deps = isObject(pkg.dependencies) ? pkg.dependencies : {};
  const installs = isObject(pkg.openclaw) && isObject(pkg.openclaw.installs) ? pkg.openclaw.installs : {};
  return {
    dependencies: Object.fromEntries(Object.entries(deps).filter((e): e is [string, string] => typeof e[1] === "string")),
    installs: Object.fromEntries(
      Object.entries(installs).filter(
        (e): e is [string, InstallRecord] => isObject(e[1]) && typeof e[1].id === "string" && typeof e[1].from === "string",
      ),
    ),
  };
}

/** Creates `<stateDir>/extensions` (0700) and its package.json when missing; returns the folder. */
export async function ensureExtensionsDir(stateDir: string): Promise<string> {
  const extDir = extensionsDir(stateDir);
  await mkdir(extDir, { recursive: true, mode: 0o700 });
  if (!(await readPackageJson(extDir))) {
    await writeFile(
      path.join(extDir, "package.json"),
      `${JSON.stringify({ private: true, description: "OpenClaw plugins installed by `openclaw plugins install`." }, null, 2)}\n`,
    );
  }
  return extDir;
}

/** Sets (or, with `undefined`, removes) the install record of `packageName`. */
export async function writeInstallRecord(extDir: string, packageName: string, record: InstallRecord | undefined): Promise<void> {
  const pkg = (await readPackageJson(extDir)) ?? { private: true };
  const openclaw = isObject(pkg.openclaw) ? pkg.openclaw : {};
  const installs = isObject(openclaw.installs) ? { ...openclaw.installs } : {};
  if (record) installs[packageName] = record;
  else delete installs[packageName];
  pkg.openclaw = { ...openclaw, installs };
  await writeFile(path.join(extDir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

/**
 * The command that installs `packageName` again: from its install record; else by short name for
 * a first-party channel; else by name when npm's `dependencies` spec is a registry one.
 */
export function reinstallCommand(packageName: string, record: InstallRecord | undefined, dependencySpec?: string): string {
  const from =
    record?.from ??
    firstPartyByPackage(packageName)?.id ??
    (dependencySpec !== undefined && !dependencySpec.startsWith("file:") ? packageName : undefined);
  if (from === undefined) return "openclaw plugins install <its folder or .tgz tarball>";
  return `openclaw plugins install ${/\s/.test(from) ? JSON.stringify(from) : from}`;
}

/** Removes the tarballs in `packages/` that no dependency refers to any more. */
export async function prunePackedTarballs(extDir: string): Promise<void> {
  const { dependencies } = await readExtensionsManifest(extDir);
  const used = new Set(
    Object.values(dependencies)
      .filter((spec) => spec.startsWith("file:"))
      .map((spec) => path.resolve(extDir, spec.slice("file:".length))),
  );
  let names: string[];
  try {
    names = await readdir(packedDir(extDir));
  } catch {
    return;
  }
  await Promise.all(
    names
      .map((n) => path.join(packedDir(extDir), n))
      .map((file) => (used.has(file) ? undefined : rm(file, { recursive: true, force: true }))),
  );
}

/** Copies of package.json and package-lock.json taken before npm changes them. */
export interface ManifestBackup {
  files: { file: string; copy: string }[];
}

export async function backupManifests(extDir: string): Promise<ManifestBackup> {
  const files: ManifestBackup["files"] = [];
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

export async function restoreManifests(backup: ManifestBackup): Promise<void> {
  for (const b of backup.files) await copyFile(b.copy, b.file);
}

export async function discardBackup(backup: ManifestBackup): Promise<void> {
  await Promise.all(backup.files.map((b) => rm(b.copy, { force: true })));
}
