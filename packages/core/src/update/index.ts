// `openclaw update`: how this copy was installed, the newest release, and the steps to upgrade.
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { type CommandRunner, firstLine } from "../service/runner.js";

/** The npm package the `openclaw` CLI ships in. */
export const CLI_PACKAGE = "@openclaw/core";

/** How the running CLI was installed: a global npm or pnpm package, or a clone of the repository. */
export type InstallKind = { kind: "npm" } | { kind: "pnpm" } | { kind: "git"; root: string };

/** Tells from the CLI entry's real path: inside a repository clone (`pnpm-workspace.yaml` and `.git` above it), pnpm's store, or else npm. */
export function detectInstall(entry: string): InstallKind {
  const real = existsSync(entry) ? realpathSync(entry) : entry;
  for (let dir = path.dirname(real); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === "node_modules") break;
    if (existsSync(path.join(dir, ".git")) && existsSync(path.join(dir, "pnpm-workspace.yaml"))) return { kind: "git", root: dir };
  }
  return /[/\\](\.pnpm|pnpm)[/\\]/.test(real) ? { kind: "pnpm" } : { kind: "npm" };
}

/** The newest published version (`npm view <pkg> version`), or an error saying why it is unknown. */
export async function latestVersion(runner: CommandRunner, pkg = CLI_PACKAGE): Promise<{ version: string } | { error: string }> {
  const result = await runner("npm", ["view", pkg, "version"]);
  const version = result.stdout.trim();
  if (result.code !== 0 || !semver.valid(version)) return { error: result.code !== 0 ? firstLine(result) : `npm answered "${version}"` };
  return { version };
}

export interface UpgradePlan {
  /** False when the installed version is the newest (a clone is always worth a pull). */
  needed: boolean;
  /** Each command, program first: install the new version, run doctor's migrations, restart the service. */
  steps: string[][];
}

/**
 * The upgrade steps for `install`: the package manager's global install of `latest` (or, in a
 * clone, `git pull --ff-only` and `scripts/bootstrap.sh`), then `openclaw doctor --fix
 * --non-interactive` with the same Node and entry (the new code, same config and state dir), then
 * `openclaw gateway restart` when the service is installed. Config, state and installed plugins
 * live in the state dir and are not touched by the package manager.
 */
export function planUpgrade(options: {
  install: InstallKind;
  current: string;
  latest?: string;
  cli: string[];
  serviceInstalled: boolean;
}): UpgradePlan {
  const { install, current, latest, cli } = options;
  const fetch =
    install.kind === "git"
      ? [
          ["git", "-C", install.root, "pull", "--ff-only"],
          ["bash", path.join(install.root, "scripts", "bootstrap.sh")],
        ]
      : [
          install.kind === "pnpm"
            ? ["pnpm", "add", "--global", `${CLI_PACKAGE}@${latest}`]
            : ["npm", "install", "--global", `${CLI_PACKAGE}@${latest}`],
        ];
  const needed = install.kind === "git" || (latest !== undefined && semver.gt(latest, current));
  const steps = [...fetch, [...cli, "doctor", "--fix", "--non-interactive"]];
  if (options.serviceInstalled) steps.push([...cli, "gateway", "restart"]);
  return { needed, steps };
}
