// The `openclaw` bin's V8 code cache (scripts/bin-loader.cjs): every command runs the CommonJS
// bundle, whose compiled code is cached per build, Node version and command under
// $XDG_CACHE_HOME/openclaw/v8 (or $OPENCLAW_CODE_CACHE; "off" disables it); a short command writes
// it when it exits, the gateway once it has started. NODE_DEBUG=openclaw makes the loader say what
// it did.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliEnv, makeTempHome, runCli } from "./helpers/cli.js";

const PACKAGE_DIR = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { bin: { openclaw: string } };
const BIN = path.join(PACKAGE_DIR, pkg.bin.openclaw);

let home: string;
let cleanup: () => void;
let cacheDir: string;
beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  cacheDir = path.join(home, "xdg-cache", "openclaw", "v8");
  mkdirSync(path.join(home, ".openclaw"), { recursive: true });
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ session: { dmScope: "main" } }));
});
afterEach(() => cleanup());

const LOOPBACK_PLUGIN = fileURLToPath(new URL("../../testkit/loopback-plugin", import.meta.url));

/**
 * Runs the bin's `openclaw gateway --port 0` until it has started (it prints the Control UI's
 * address, right after the start-up hold's release, with its signal handlers then set), then stops
 * it with SIGTERM; resolves with its exit code and stderr (with NODE_DEBUG lines).
 */
function runGatewayOnce(): Promise<{ code: number | string | null; stderr: string }> {
  const env = cliEnv(home, { XDG_CACHE_HOME: path.join(home, "xdg-cache"), NODE_DEBUG: "openclaw" });
  const child = spawn(process.execPath, [BIN, "gateway", "--port", "0"], { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    if (stdout.includes("Control UI:") && child.signalCode === null && !child.killed) child.kill("SIGTERM");
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code: code ?? signal, stderr })));
}

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { home, entry: BIN, env: { XDG_CACHE_HOME: path.join(home, "xdg-cache"), NODE_DEBUG: "openclaw", ...env } });
const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);
/** What the loader said about the cache (NODE_DEBUG lines), and the output without those lines. */
const split = (stderr: string) => ({
  debug: stderr.split("\n").filter((line) => /^OPENCLAW \d+:/.test(line)),
  rest: stderr
    .split("\n")
    .filter((line) => !/^OPENCLAW \d+:/.test(line))
    .join("\n"),
});

describe("the bin's code cache", () => {
  it("is written by a command's first run and used by the next, with the same output", async () => {
    const first = await run(["config", "validate"]);
    expect(first.code, first.stderr).toBe(0);
    expect(split(first.stderr).debug.join("\n")).toMatch(/code cache .*-config\.bin: none[\s\S]*code cache written/);
    const files = cacheFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^cli-[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}-config\\.bin$`));

    const second = await run(["config", "validate"]);
    expect(split(second.stderr).debug.join("\n")).toMatch(/code cache .*-config\.bin: used/);
    expect(split(second.stderr).debug.join("\n")).not.toMatch(/written/);
    expect({ code: second.code, stdout: second.stdout, stderr: split(second.stderr).rest }).toEqual({
      code: first.code,
      stdout: first.stdout,
      stderr: split(first.stderr).rest,
    });
  });

  it("works where WebAssembly memory cannot be reserved (a virtual memory limit): the bundle and its cache are read into ordinary buffers", async () => {
    const limited = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const env = cliEnv(home, { XDG_CACHE_HOME: path.join(home, "xdg-cache"), NODE_DEBUG: "openclaw" });
        const child = spawn("bash", ["-c", `ulimit -v 3000000 && exec "$0" "$1" config validate`, process.execPath, BIN], {
          env,
          cwd: home,
        });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
        child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    const first = await limited();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Config OK");
    expect(split(first.stderr).debug.join("\n")).toMatch(/-config\.bin: none[\s\S]*code cache written/);
    const second = await limited();
    expect(second.stdout).toBe(first.stdout);
    expect(split(second.stderr).debug.join("\n")).toMatch(/-config\.bin: used/);
  });

  it("keeps import() working in code restored from the cache (doctor --fix loads node:crypto to write)", async () => {
    writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ channels: { telegram: { streamMode: "partial" } } }));
    await run(["doctor"]); // writes the doctor cache, changes nothing
    const fixed = await run(["doctor", "--fix"]);
    expect(split(fixed.stderr).debug.join("\n")).toMatch(/-doctor\.bin: used/);
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    const written = JSON.parse(readFileSync(path.join(home, ".openclaw", "openclaw.json"), "utf8"));
    expect(written.channels.telegram.streamMode).toBeUndefined();
    expect(written.channels.telegram.streaming).toMatchObject({ mode: "partial" });
  });

  it("rewrites a cache V8 rejects, and removes the files of other builds", async () => {
    mkdirSync(cacheDir, { recursive: true });
    await run(["config", "validate"]);
    const [file] = cacheFiles();
    writeFileSync(path.join(cacheDir, file as string), Buffer.alloc(4096, 7)); // not a V8 code cache
    const stale = `cli-0000000000000000-${process.version}-${process.arch}-config.bin`;
    writeFileSync(path.join(cacheDir, stale), "old build");

    const rejected = await run(["config", "validate"]);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain("Config OK");
    expect(split(rejected.stderr).debug.join("\n")).toMatch(/: rejected[\s\S]*code cache written/);
    expect(cacheFiles()).toEqual([file]);
    const again = await run(["config", "validate"]);
    expect(split(again.stderr).debug.join("\n")).toMatch(/: used/);
  });

  it("ignores a cache file others may write (V8 would run what it holds) and writes its own", async () => {
    await run(["config", "validate"]);
    const file = path.join(cacheDir, cacheFiles()[0] as string);
    chmodSync(file, 0o666);
    const ignored = await run(["config", "validate"]);
    expect(ignored.code).toBe(0);
    expect(split(ignored.stderr).debug.join("\n")).toMatch(/writable by others, ignored[\s\S]*code cache written/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await run(["config", "validate"]);
    expect(split(again.stderr).debug.join("\n")).toMatch(/: used/);
  });

  it("goes where OPENCLAW_CODE_CACHE says, and nowhere with OPENCLAW_CODE_CACHE=off", async () => {
    const custom = path.join(home, "custom-cache");
    await run(["config", "validate"], { OPENCLAW_CODE_CACHE: custom });
    expect(readdirSync(custom)).toHaveLength(1);
    expect(cacheFiles()).toEqual([]);

    const off = await run(["config", "validate"], { OPENCLAW_CODE_CACHE: "off" });
    expect(off.code).toBe(0);
    expect(split(off.stderr).debug.join("\n")).toMatch(/code cache off/);
    expect(cacheFiles()).toEqual([]);
    expect(readdirSync(custom)).toHaveLength(1);
  });

  it("skips the cache when source maps are on (Node's own loader reads them; node:vm would not)", async () => {
    const mapped = await run(["config", "validate"], { NODE_OPTIONS: "--enable-source-maps" });
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(mapped.stdout).toContain("Config OK");
    expect(split(mapped.stderr).debug.join("\n")).toMatch(/source maps on: no code cache/);
    expect(cacheFiles()).toEqual([]);
  });

  it.each([
    ["no channel", {}],
    // A channel's plugin loads in between (its own libraries through their caches).
    ["a channel account", { plugins: { load: { paths: [LOOPBACK_PLUGIN] } }, channels: { loopback: { dmPolicy: "pairing" } } }],
  ])("writes the gateway's cache once it has started (%s), and its next start uses it", async (_case, config) => {
    writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ session: { dmScope: "main" }, ...config }));
    const first = await runGatewayOnce();
    expect(first.code, first.stderr).toBe(0);
    const said = split(first.stderr).debug.join("\n");
    expect(said).toMatch(/code cache .*-gateway\.bin: none[\s\S]*code cache written: .*-gateway\.bin/);
    // Written once it has started, not at the exit.
    expect(first.stderr.indexOf("code cache written")).toBeLessThan(first.stderr.indexOf("SIGTERM received"));
    expect(cacheFiles()).toEqual([expect.stringMatching(/-gateway\.bin$/)]);

    const second = await runGatewayOnce();
    expect(second.code, second.stderr).toBe(0);
    expect(split(second.stderr).debug.join("\n")).toMatch(/-gateway\.bin: used/);
    expect(second.stderr).not.toContain("code cache written");
  });

  it("runs `gateway --help` through the bundle too", async () => {
    const help = await run(["gateway", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("run the gateway in the foreground");
    expect(split(help.stderr).debug.join("\n")).toMatch(/code cache .*-gateway\.bin: none/);
    expect(cacheFiles()).toEqual([]); // written only by a gateway that has started
  });
});
