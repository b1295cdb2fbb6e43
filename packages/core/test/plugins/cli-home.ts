// A temporary HOME for running the built `openclaw plugins …` CLI with real npm, offline: local
// folders and tarballs without dependencies need no registry, and none is reachable in tests.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { type CliResult, makeTempHome, runCli } from "../helpers/cli.js";

export interface CliHome {
  home: string;
  stateDir: string;
  /** `<stateDir>/extensions`. */
  ext: string;
  configPath: string;
  /** npm settings every run gets (offline, a cache inside home). */
  env: Record<string, string>;
  cli(...args: string[]): Promise<CliResult>;
  /** `plugins list --json`, asserting exit 0. */
  listJson(): Promise<{ plugins: Record<string, any>[]; problems: Record<string, any>[]; hostSdkVersion: string }>;
  /** `npm pack` of a folder into a fresh folder under home; returns the tarball's path. */
  pack(dir: string): string;
  /** Entries of `<ext>/node_modules`, dot entries left out. */
  installed(): string[];
  cleanup(): void;
}

/** `entry` runs another copy of the CLI (e.g. the bundled bin) instead of tsc's dist/cli/main.js. */
export function makeCliHome(options: { entry?: string } = {}): CliHome {
  const { home, cleanup } = makeTempHome();
  const stateDir = path.join(home, ".openclaw");
  const ext = path.join(stateDir, "extensions");
  const env = { npm_config_offline: "true", npm_config_cache: path.join(home, ".npm-cache") };
  const cli = (...args: string[]) => runCli(args, { home, env, ...(options.entry ? { entry: options.entry } : {}) });
  return {
    home,
    stateDir,
    ext,
    configPath: path.join(stateDir, "openclaw.json"),
    env,
    cli,
    async listJson() {
      const r = await cli("plugins", "list", "--json");
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    },
    pack(dir) {
      const dest = mkdtempSync(path.join(home, "pack-"));
      const name = execFileSync("npm", ["pack", dir, "--pack-destination", dest, "--offline", "--silent"], {
        env: { ...process.env, ...env },
        encoding: "utf8",
      }).trim();
      return path.join(dest, name);
    },
    installed: () =>
      existsSync(path.join(ext, "node_modules")) ? readdirSync(path.join(ext, "node_modules")).filter((n) => !n.startsWith(".")) : [],
    cleanup,
  };
}
