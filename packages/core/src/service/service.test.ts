import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CommandRunner,
  installService,
  renderLaunchdPlist,
  renderSystemdUnit,
  resolveGatewayLaunch,
  type RunResult,
  serviceManagerFor,
} from "./index.js";

/** A service manager's command line as a fake: records every call and answers from `answers` (by "cmd arg0 arg1 ..." prefix). */
function fakeRunner(answers: Record<string, Partial<RunResult>> = {}): CommandRunner & { calls: string[] } {
  const calls: string[] = [];
  const run: CommandRunner = async (command, args) => {
    const line = [command, ...args].join(" ");
    calls.push(line);
    const key = Object.keys(answers)
      .filter((k) => line.startsWith(k))
      .sort((a, b) => b.length - a.length)[0];
    return { code: 0, stdout: "", stderr: "", ...(key ? answers[key] : {}) };
  };
  return Object.assign(run, { calls });
}

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-service-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const launchFor = (stateDir: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  resolveGatewayLaunch({
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    env: { PATH: "/usr/local/bin:/usr/bin", OPENCLAW_GATEWAY_TOKEN: "secret-token-value", ...extraEnv },
    execPath: "/opt/node 20/bin/node",
    entry: "/opt/openclaw/dist/cli/main.js",
  });

describe("systemd unit", () => {
  it("runs the same Node and CLI entry with the state dir, restarts on failure, and carries no secret", () => {
    const unit = renderSystemdUnit({ launch: launchFor("/home/u/.openclaw"), systemdVersion: 252 });
    const lines = unit.split("\n");
    expect(lines).toContain('ExecStart="/opt/node 20/bin/node" /opt/openclaw/dist/cli/main.js gateway');
    expect(lines).toContain("Environment=OPENCLAW_STATE_DIR=/home/u/.openclaw");
    expect(lines).toContain("Environment=PATH=/usr/local/bin:/usr/bin");
    expect(lines).toContain("EnvironmentFile=-/home/u/.openclaw/gateway.env");
    expect(lines).toContain("Restart=on-failure");
    expect(lines).toContain("RestartSec=5");
    expect(lines).toContain("WantedBy=default.target");
    // systemd 252 does not know RestartSteps; a newer one grows the delay.
    expect(unit).not.toContain("RestartSteps");
    expect(renderSystemdUnit({ launch: launchFor("/s"), systemdVersion: 256 })).toContain("RestartSteps=6\nRestartMaxDelaySec=300\n");
    expect(unit).not.toContain("secret-token-value");
  });

  it("passes --profile instead of a state dir, and escapes % and $ so systemd takes them literally", () => {
    const launch = resolveGatewayLaunch({
      paths: { stateDir: "/home/u/.openclaw-work", configPath: "/home/u/.openclaw-work/openclaw.json", profile: "work" },
      env: { OPENCLAW_CONFIG_PATH: "/cfg/100%$HOME.json" },
      execPath: "/usr/bin/node",
      entry: "/x/main.js",
    });
    const unit = renderSystemdUnit({ launch });
    expect(unit).toContain("ExecStart=/usr/bin/node /x/main.js gateway --profile work\n");
    expect(unit).toContain("Environment=OPENCLAW_CONFIG_PATH=/cfg/100%%$$HOME.json\n");
    expect(unit).not.toContain("OPENCLAW_STATE_DIR");
  });
});

describe("launchd plist", () => {
  it("lists the program and arguments in order, keeps it alive after a failure, and escapes XML", () => {
    const plist = renderLaunchdPlist(launchFor("/Users/u/.openclaw", { OPENCLAW_CONFIG_PATH: "/c/a&b.json" }), "ai.openclaw.gateway");
    const args = /<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(plist)?.[1] ?? "";
    expect([...args.matchAll(/<string>(.*?)<\/string>/g)].map((m) => m[1])).toEqual([
      "/opt/node 20/bin/node",
      "/opt/openclaw/dist/cli/main.js",
      "gateway",
    ]);
    expect(plist).toMatch(/<key>KeepAlive<\/key>\s*<dict>\s*<key>SuccessfulExit<\/key>\s*<false\/>/);
    expect(plist).toMatch(/<key>RunAtLoad<\/key>\s*<true\/>/);
    expect(plist).toMatch(/<key>OPENCLAW_STATE_DIR<\/key>\s*<string>\/Users\/u\/\.openclaw<\/string>/);
    expect(plist).toContain("<string>/c/a&amp;b.json</string>");
    expect(plist).toContain("<string>/Users/u/.openclaw/logs/launchd.log</string>");
    expect(plist).not.toContain("secret-token-value");
  });
});

describe("systemd service manager (fake systemctl)", () => {
  const paths = () => ({ stateDir: path.join(home, ".openclaw"), configPath: path.join(home, ".openclaw", "openclaw.json") });

  it("install writes the unit under ~/.config/systemd/user, enables and starts it, and explains linger", async () => {
    const runner = fakeRunner({
      "systemctl --version": { stdout: "systemd 252 (252.38-1~deb12u1)\n+PAM" },
      "loginctl show-user": { stdout: "no\n" },
    });
    const out: string[] = [];
    const stdout = { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream;
    const result = await installService({
      paths: paths(),
      env: { HOME: home, USER: "ada" },
      stdout,
      runner,
      platform: "linux",
      entry: "/x/main.js",
    });
    const unitPath = path.join(home, ".config", "systemd", "user", "openclaw-gateway.service");
    expect(result).toEqual({ unitPath, started: true });
    expect(readFileSync(unitPath, "utf8")).toContain(`ExecStart=${process.execPath} /x/main.js gateway`);
    expect(runner.calls).toEqual([
      "systemctl --version",
      "systemctl --user daemon-reload",
      "systemctl --user enable openclaw-gateway.service",
      "systemctl --user restart openclaw-gateway.service",
      "loginctl show-user ada --property=Linger --value",
    ]);
    expect(out.join("")).toContain("sudo loginctl enable-linger $USER");
    expect(existsSync(path.join(home, ".openclaw", "logs"))).toBe(true);
  });

  it("install without a reachable user manager keeps the unit and says what to run", async () => {
    const runner = fakeRunner({ "systemctl --user": { code: 1, stderr: "Failed to connect to bus: No medium found" } });
    const result = await serviceManagerFor({
      paths: paths(),
      env: { HOME: home },
      runner,
      platform: "linux",
      entry: "/x/main.js",
    }).install();
    expect(result.started).toBe(false);
    expect(existsSync(result.unitPath)).toBe(true);
    expect(result.notes.join("\n")).toMatch(/Failed to connect to bus[\s\S]*systemctl --user enable --now openclaw-gateway.service/);
  });

  it("status reads systemctl show; uninstall disables and deletes the unit", async () => {
    const runner = fakeRunner({
      "systemctl --user show": { stdout: "ActiveState=active\nSubState=running\nMainPID=4242\nResult=success\n" },
      "loginctl show-user": { stdout: "yes\n" },
    });
    const manager = serviceManagerFor({ paths: paths(), env: { HOME: home, USER: "ada" }, runner, platform: "linux", entry: "/x/main.js" });
    expect(await manager.status()).toMatchObject({ installed: false, running: false, state: "not installed" });
    await expect(manager.start()).rejects.toThrow(/not installed.*openclaw gateway install/);
    await manager.install();
    expect(await manager.status()).toMatchObject({ installed: true, running: true, pid: 4242, state: "active (running)", linger: true });
    runner.calls.length = 0;
    expect((await manager.uninstall()).removed).toBe(true);
    expect(runner.calls).toEqual(["systemctl --user disable --now openclaw-gateway.service", "systemctl --user daemon-reload"]);
    expect((await manager.status()).installed).toBe(false);
  });
});

describe("launchd service manager (fake launchctl)", () => {
  it("bootstraps the plist into gui/<uid>, reads print's state, and boots it out on stop", async () => {
    const runner = fakeRunner({ "launchctl print": { stdout: "gui/501/ai.openclaw.gateway = {\n\tstate = running\n\tpid = 777\n}" } });
    const stateDir = path.join(home, ".openclaw");
    const manager = serviceManagerFor({
      paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
      env: { HOME: home },
      runner,
      platform: "darwin",
      uid: 501,
      entry: "/x/main.js",
    });
    const plistPath = path.join(home, "Library", "LaunchAgents", "ai.openclaw.gateway.plist");
    expect((await manager.install()).started).toBe(true);
    expect(runner.calls).toEqual(["launchctl bootout gui/501/ai.openclaw.gateway", `launchctl bootstrap gui/501 ${plistPath}`]);
    expect(await manager.status()).toMatchObject({ installed: true, running: true, pid: 777 });
    runner.calls.length = 0;
    await manager.stop();
    await manager.restart();
    expect(runner.calls).toEqual([
      "launchctl bootout gui/501/ai.openclaw.gateway",
      "launchctl print gui/501/ai.openclaw.gateway",
      "launchctl kickstart -k gui/501/ai.openclaw.gateway",
    ]);
  });

  it("refuses other platforms with a message naming the alternative", () => {
    expect(() => serviceManagerFor({ paths: { stateDir: home, configPath: home }, env: {}, platform: "win32" })).toThrow(
      /Linux \(systemd\) and macOS \(launchd\), not on win32/,
    );
  });
});
