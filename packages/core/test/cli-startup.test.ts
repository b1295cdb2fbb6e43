// Guards the CLI's lazy loading structurally, not by timing: each command file in
// src/cli/commands/ only registers commander definitions, and its implementation in
// src/cli/actions/ (with the config module, zod, SQLite, YAML, skills, sessions, workspace…) is
// imported when the command runs. A regression (a static import of a heavy module in a
// registration file, context.ts, program.ts or main.ts) makes `--version` pay for it again.
//
// How: the built CLI runs with `node --import test/fixtures/record-loads.mjs` (via NODE_OPTIONS).
// That preload registers module customization hooks whose `load` hook appends every URL the ESM
// loader loads to a temp file; the test then classifies the URLs as our dist files or npm packages.
// CommonJS files required from inside a CommonJS package are not seen, but each package's entry
// is, which is all these checks need. Positive controls (commander, zod) prove the recorder works.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, makeTempHome, runCli, type CliResult } from "./helpers/cli.js";

const DIST = path.resolve(path.dirname(CLI_ENTRY), "..");
const PLUGIN_SDK = fileURLToPath(new URL("../../plugin-sdk/", import.meta.url));
const RECORDER = pathToFileURL(fileURLToPath(new URL("./fixtures/record-loads.mjs", import.meta.url))).href;

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

/**
 * A loaded module as `dist:<path inside packages/core/dist>`, `pkg:<npm package name>`, or
 * `file:<path>` for anything else; builtins (`node:`) are left out.
 */
function classify(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  const file = fileURLToPath(url);
  if (file.startsWith(DIST + path.sep)) return `dist:${path.relative(DIST, file).split(path.sep).join("/")}`;
  if (file.startsWith(PLUGIN_SDK)) return "pkg:@openclaw/plugin-sdk";
  const i = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (i >= 0) {
    const parts = file.slice(i + "/node_modules/".length).split(path.sep);
    return `pkg:${parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  return `file:${file}`;
}

/** Runs the CLI with the load recorder; returns its result and the modules it loaded. */
async function runRecorded(args: string[]): Promise<{ result: CliResult; loaded: Set<string> }> {
  const log = path.join(home, "loaded-modules.txt");
  const result = await runCli(args, {
    home,
    env: { NODE_OPTIONS: `--import=${RECORDER}`, RECORD_LOADS_FILE: log },
  });
  const urls = readFileSync(log, "utf8").split("\n").filter(Boolean);
  return { result, loaded: new Set(urls.map(classify).filter((m): m is string => m !== undefined)) };
}

/** What `--version` and `--help` may load: commander, the CLI shell and registrations, paths.js. */
function allowedAtStartup(module: string): boolean {
  // config/first-party-channels.js is plain data (the first-party channel ids named in `plugins install --help`).
  if (module === "pkg:commander" || module === "dist:config/paths.js" || module === "dist:config/first-party-channels.js") return true;
  return module.startsWith("dist:cli/") && !module.startsWith("dist:cli/actions/");
}

const HEAVY_CONCERNS = ["skills", "sessions", "workspace", "doctor", "state", "agent", "providers", "tools", "memory", "streaming"];
const HEAVY_PACKAGES = ["better-sqlite3", "yaml", "openai", "@anthropic-ai/sdk", "linkedom", "@mozilla/readability"];

describe("CLI start-up loads only what the command needs", () => {
  it("--version and every --help load commander and the registration modules, nothing else", async () => {
    const runs = [
      ["--version"],
      ["--help"],
      ["config", "--help"],
      ["config", "validate", "--help"],
      ["doctor", "--help"],
      ["skills", "list", "--help"],
      ["sessions", "show", "--help"],
      ["setup", "--help"],
      ["context", "--help"],
    ];
    for (const args of runs) {
      const { result, loaded } = await runRecorded(args);
      expect(result.code, `openclaw ${args.join(" ")}: ${result.stderr}`).toBe(0);
      expect(loaded.has("dist:cli/main.js") && loaded.has("pkg:commander"), "the recorder saw the CLI load").toBe(true);
      expect(
        [...loaded].filter((m) => !allowedAtStartup(m)),
        `openclaw ${args.join(" ")}`,
      ).toEqual([]);
    }
  });

  it("--help still registers every command file (so the check above covers all of them)", async () => {
    const { loaded } = await runRecorded(["--help"]);
    for (const name of ["config", "doctor", "skills", "setup", "context", "sessions"]) {
      expect(loaded.has(`dist:cli/commands/${name}.js`), name).toBe(true);
    }
  });

  it("config validate loads the config module and its action, but no other concern", async () => {
    const { result, loaded } = await runRecorded(["config", "validate"]);
    expect(result.code, result.stderr).toBe(0);
    // Positive controls: the lazy import happened and the recorder saw it.
    expect(loaded.has("dist:cli/actions/config.js")).toBe(true);
    expect(loaded.has("dist:config/index.js")).toBe(true);
    expect(loaded.has("pkg:zod")).toBe(true);
    const heavy = [...loaded].filter(
      (m) =>
        HEAVY_CONCERNS.some((c) => m.startsWith(`dist:${c}/`)) ||
        HEAVY_PACKAGES.some((p) => m === `pkg:${p}`) ||
        (m.startsWith("dist:cli/actions/") && m !== "dist:cli/actions/config.js"),
    );
    expect(heavy).toEqual([]);
  });
});
