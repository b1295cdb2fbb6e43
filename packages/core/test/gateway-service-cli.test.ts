// `openclaw gateway install|status|uninstall` and `openclaw status` through the built CLI, against
// a fake systemctl on PATH; the unit it writes is checked with the real `systemd-analyze verify`
// (never started). Under CI a missing systemd-analyze fails the test (scripts/install-test-tools.sh installs it).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CLI_ENTRY, makeTempHome, runCli } from "./helpers/cli.js";
import { installFakeSystemctl } from "./helpers/fake-systemctl.js";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome("openclaw-service-")));
afterEach(() => cleanup());

const hasSystemdAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;
const onLinux = process.platform === "linux";

it.skipIf(!onLinux)(
  "gateway install writes a unit for this Node and CLI that systemd-analyze verify accepts; status and uninstall follow it",
  async () => {
    const fake = installFakeSystemctl(path.join(home, "fake"));
    const env = { PATH: `${fake.bin}:${process.env.PATH}`, USER: "ada" };

    const installed = await runCli(["gateway", "install"], { home, env });
    expect(installed.code, installed.stderr).toBe(0);
    const unitPath = path.join(home, ".config", "systemd", "user", "openclaw-gateway.service");
    expect(installed.stdout).toContain(`wrote ${unitPath}`);
    expect(installed.stdout).toContain("sudo loginctl enable-linger $USER");
    expect(fake.calls()).toEqual([
      "systemctl --version",
      "systemctl --user daemon-reload",
      "systemctl --user enable openclaw-gateway.service",
      "systemctl --user restart openclaw-gateway.service",
      "loginctl show-user ada --property=Linger --value",
    ]);
    const unit = readFileSync(unitPath, "utf8");
    expect(unit).toContain(`ExecStart=${process.execPath} ${CLI_ENTRY} gateway\n`);
    expect(unit).toContain(`Environment=OPENCLAW_STATE_DIR=${path.join(home, ".openclaw")}\n`);

    if (!hasSystemdAnalyze) {
      if (process.env.CI) throw new Error("systemd-analyze is missing; run scripts/install-test-tools.sh (.ci/run does)");
    } else {
      // verify prints unknown keys and bad values as warnings with exit code 0: both must be clean.
      const verified = spawnSync("systemd-analyze", ["verify", unitPath], { encoding: "utf8" });
      expect(verified.stderr + verified.stdout).toBe("");
      expect(verified.status).toBe(0);
      // The check is real: the same tool rejects a broken copy.
      const broken = path.join(home, "broken.service");
      execFileSync("sh", ["-c", `sed 's/^Restart=on-failure/Restart=sometimes/' '${unitPath}' > '${broken}'`]);
      expect(spawnSync("systemd-analyze", ["verify", broken], { encoding: "utf8" }).stderr).toMatch(/restart specifier.*sometimes/);
    }

    const status = await runCli(["gateway", "status"], { home, env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("Service: running — systemd openclaw-gateway.service, active (running), pid 4242");

    // `openclaw status` says so even when no gateway answers (here: nothing listens on port 1).
    const overall = await runCli(["status"], { home, env: { ...env, OPENCLAW_GATEWAY_PORT: "1" } });
    expect(overall.code).toBe(1);
    expect(overall.stdout).toContain("Service: running — systemd openclaw-gateway.service");
    expect(overall.stderr).toContain("No gateway is running");

    const removed = await runCli(["gateway", "uninstall"], { home, env });
    expect(removed.stdout).toContain(`removed ${unitPath}`);
    const after = await runCli(["gateway", "status", "--json"], { home, env });
    expect(after.code).toBe(4);
    expect(JSON.parse(after.stdout)).toMatchObject({ manager: "systemd", installed: false, running: false });
  },
);

it.skipIf(!onLinux)("gateway status reports a failed unit with exit code 3 and where to look", async () => {
  const fake = installFakeSystemctl(path.join(home, "fake"), "ActiveState=failed\nSubState=failed\nMainPID=0\nResult=exit-code\n");
  const env = { PATH: `${fake.bin}:${process.env.PATH}` };
  expect((await runCli(["gateway", "install"], { home, env })).code).toBe(0);
  const status = await runCli(["gateway", "status"], { home, env });
  expect(status.code).toBe(3);
  expect(status.stdout).toContain("Service: not running — systemd openclaw-gateway.service, failed (failed, exit-code)");
  expect(status.stdout).toContain("openclaw logs");
});
