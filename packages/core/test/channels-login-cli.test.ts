// `openclaw channels login|logout <channel>` and the needs-linking line of `channels status`, with
// the real CLI process and a channel plugin folder linked by QR code (fixtures/plugins/linkchat).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import QRCode from "qrcode";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI_ENTRY, cliEnv, makeTempHome, runCli, startGatewayCli } from "./helpers/cli.js";
import { decodeTerminalQrs } from "./helpers/terminal-qr.js";

const PLUGINS = fileURLToPath(new URL("./fixtures/plugins/", import.meta.url));
const LINKCHAT = path.join(PLUGINS, "linkchat");
const { QR_CODES } = (await import(pathToFileURL(path.join(LINKCHAT, "index.js")).href)) as { QR_CODES: string[] };

let home: string;
let cleanup: () => void;
let stateDir: string;
let configPath: string;
let gateway: ChildProcess | undefined;

function writeConfig(channels: Record<string, unknown>, extraPlugins: string[] = []): void {
  writeFileSync(
    configPath,
    JSON.stringify({ plugins: { load: { paths: [LINKCHAT, ...extraPlugins] } }, channels, agents: { defaults: { skipBootstrap: true } } }),
  );
}

const credentials = (account = "default") => path.join(stateDir, "credentials", "linkchat", account);
const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

beforeEach(() => {
  ({ home, cleanup } = makeTempHome("openclaw-login-"));
  stateDir = path.join(home, ".openclaw");
  configPath = path.join(stateDir, "openclaw.json");
  mkdirSync(stateDir);
  writeConfig({ linkchat: {} });
});
afterEach(() => {
  if (gateway && gateway.exitCode === null) gateway.kill("SIGKILL");
  gateway = undefined;
  cleanup();
});

describe("openclaw channels login", () => {
  it("renders each QR code the plugin shows, then prints who is linked and exits 0", async () => {
    const run = await runCli(["channels", "login", "linkchat"], { home });
    expect(run.code, run.stderr).toBe(0);
    // Each block is the qrcode library's own terminal rendering of the plugin's string...
    for (const code of QR_CODES) expect(run.stdout).toContain(await QRCode.toString(code, { type: "terminal", small: true }));
    // ...and reads back as that string, in order, like a phone camera would.
    expect(decodeTerminalQrs(run.stdout)).toEqual(QR_CODES);
    expect(run.stdout).toContain("Scan this QR code with Link Chat on your phone to link linkchat:default");
    expect(run.stdout).toContain("The QR code changed; scan this one:");
    expect(run.stdout).toContain("Linked as +15550001111.");
    // The plugin saved its state in the account's credentials folder, created 0700.
    expect(statSync(credentials()).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path.join(credentials(), "creds.json"), "utf8"))).toEqual({ me: "+15550001111" });
  });

  it("links a named account into its own folder", async () => {
    writeConfig({ linkchat: { accounts: { work: { phone: "+4915112345678" } } } });
    const run = await runCli(["channels", "login", "linkchat", "--account", "work"], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Linked as +4915112345678.");
    expect(existsSync(path.join(credentials("work"), "creds.json"))).toBe(true);
  });

  it("--pairing-code prints the code the plugin got for that number instead of a QR code", async () => {
    const run = await runCli(["channels", "login", "linkchat", "--pairing-code", "+15551234567"], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Pairing code for +15551234567: LC4567-CODE");
    expect(decodeTerminalQrs(run.stdout)).toEqual([]);
    expect(run.stdout).toContain("Linked as +15550001111.");
  });

  it("refuses a pairing number that is not E.164 before loading anything", async () => {
    const run = await runCli(["channels", "login", "linkchat", "--pairing-code", "5551234567"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--pairing-code needs the phone number to link, in E.164 form");
    expect(existsSync(credentials())).toBe(false);
  });

  it("names the file and the key when the account is not configured", async () => {
    const run = await runCli(["channels", "login", "linkchat", "--account", "work"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Account "work" is not configured: ${configPath} has no channels.linkchat.accounts.work`);
    noStackTrace(run.stderr);
    writeConfig({});
    const none = await runCli(["channels", "login", "linkchat"], { home });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${configPath} has no channels.linkchat: add it`);
  });

  it("says a channel without login needs none", async () => {
    writeConfig({ fakechat: {} }, [path.join(PLUGINS, "fakechat")]);
    const run = await runCli(["channels", "login", "fakechat"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `channel fakechat needs no login; its accounts connect with the keys under channels.fakechat in ${configPath}`,
    );
    const logout = await runCli(["channels", "logout", "fakechat"], { home });
    expect(logout.code).toBe(1);
    expect(logout.stderr).toContain("channel fakechat needs no logout");
  });

  it("reports a failed link without a stack trace", async () => {
    writeConfig({ linkchat: { loginMode: "fail" } });
    const run = await runCli(["channels", "login", "linkchat"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Linking linkchat:default failed: the phone refused the link");
    noStackTrace(run.stderr);
  });

  it("--timeout gives up when no phone linked in time", async () => {
    writeConfig({ linkchat: { loginMode: "wait" } });
    const run = await runCli(["channels", "login", "linkchat", "--timeout", "0.5"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("No phone linked linkchat:default within 0.5 s; run `openclaw channels login linkchat` again");
    expect(readFileSync(path.join(credentials(), "login-aborted"), "utf8")).toBe("yes");
    noStackTrace(run.stderr);
  });

  it("Ctrl-C (SIGINT) while waiting for the phone aborts the plugin's login and exits 130 cleanly", async () => {
    writeConfig({ linkchat: { loginMode: "wait" } });
    const child = spawn(process.execPath, [CLI_ENTRY, "channels", "login", "linkchat"], { env: cliEnv(home), cwd: home });
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
        if (decodeTerminalQrs(stdout).length === 1) resolve();
      }),
    );
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("Login cancelled (Ctrl-C); linkchat:default was not linked.");
    noStackTrace(stderr);
    expect(stdout).not.toContain("Linked as");
    expect(readFileSync(path.join(credentials(), "login-aborted"), "utf8")).toBe("yes"); // the plugin saw the signal
    expect(existsSync(path.join(credentials(), "creds.json"))).toBe(false);
  });
});

describe("openclaw channels logout", () => {
  it("calls the plugin's logout and lists the files it removed", async () => {
    expect((await runCli(["channels", "login", "linkchat"], { home })).code).toBe(0);
    const run = await runCli(["channels", "logout", "linkchat"], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `Logged out linkchat:default; removed 2 files from ${credentials()}:\n  creds.json\n  keys/session.json\n`,
    );
    expect(run.stdout).toContain("Link it again with `openclaw channels login linkchat`.");
    expect(existsSync(path.join(credentials(), "creds.json"))).toBe(false);
    const again = await runCli(["channels", "logout", "linkchat"], { home });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("nothing was removed");
  });
});

/** `openclaw gateway --port 0` in its own process; resolves once it listens. */
async function startGateway(): Promise<void> {
  gateway = (await startGatewayCli({ home })).child;
}

async function channelsStatus(): Promise<{ text: string; json: { channels: { accounts: Record<string, unknown>[] }[] } }> {
  for (;;) {
    const json = await runCli(["channels", "status", "--json"], { home });
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout);
    if (parsed.channels[0]?.accounts.every((a: { state: string }) => a.state !== "starting")) {
      const text = await runCli(["channels", "status"], { home });
      return { text: text.stdout, json: parsed };
    }
  }
}

describe("openclaw channels status", () => {
  it("shows an account that waits to be linked, with the command to run; after login and a restart it is connected", async () => {
    writeConfig({ linkchat: { accounts: { default: {}, work: {} } } });
    await startGateway();
    const before = await channelsStatus();
    expect(before.text).toContain("  default: needs linking: run `openclaw channels login linkchat`\n    not linked to a phone yet\n");
    expect(before.text).toContain("  work: needs linking: run `openclaw channels login linkchat --account work`");
    expect(before.json.channels[0]!.accounts[1]).toMatchObject({
      accountId: "work",
      state: "needs-login",
      loginCommand: "openclaw channels login linkchat --account work",
    });
    const status = await runCli(["status"], { home });
    expect(status.stdout).toContain("    work: needs linking: run `openclaw channels login linkchat --account work`");

    // A login while the gateway runs says what the gateway will do (this plugin does not watch
    // for new links: it connects at the next start).
    const login = await runCli(["channels", "login", "linkchat", "--account", "work"], { home });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(
      `A gateway is running on this state folder (pid ${gateway!.pid}): it connects linkchat:work by itself if the channel watches for new links, else at its next start.`,
    );
    expect((await channelsStatus()).json.channels[0]!.accounts[1]).toMatchObject({ state: "needs-login" });

    const exited = new Promise((resolve) => gateway!.on("exit", resolve));
    gateway!.kill("SIGTERM");
    await exited;
    await startGateway();
    const after = await channelsStatus();
    expect(after.json.channels[0]!.accounts.map((a) => [a.accountId, a.state, a.identity])).toEqual([
      ["default", "needs-login", undefined],
      ["work", "connected", "+15550001111"],
    ]);
  }, 60_000);
});
