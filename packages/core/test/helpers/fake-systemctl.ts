import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A fake `systemctl` and `loginctl` in `<dir>/bin`, for running the built CLI without touching the
 * host's service manager: put `bin` first on PATH. Each call is appended to `<dir>/calls.log`;
 * `systemctl --version` says systemd 252, `systemctl --user show` answers `show` (ActiveState=...),
 * `loginctl show-user` answers "no"; every other call succeeds silently.
 */
export function installFakeSystemctl(dir: string, show = "ActiveState=active\nSubState=running\nMainPID=4242\nResult=success\n") {
  const bin = path.join(dir, "bin");
  const log = path.join(dir, "calls.log");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(dir, "show.txt"), show);
  const script = (name: string, body: string) => {
    const file = path.join(bin, name);
    writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> "${log}"\n${body}\nexit 0\n`);
    chmodSync(file, 0o755);
  };
  script(
    "systemctl",
    `case "$*" in\n  --version) echo "systemd 252 (252.38-1~deb12u1)";;\n  "--user show "*) cat "${path.join(dir, "show.txt")}";;\nesac`,
  );
  script("loginctl", "echo no");
  return {
    bin,
    /** Every call so far, one "systemctl --user ..." line each. */
    calls: (): string[] => {
      try {
        return readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
  };
}
