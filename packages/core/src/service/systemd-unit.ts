import path from "node:path";
import type { GatewayLaunch } from "./launch.js";

/** `openclaw-gateway.service`, or `openclaw-gateway-<profile>.service` for a `--profile`. */
export function systemdUnitName(profile?: string): string {
  return profile === undefined ? "openclaw-gateway.service" : `openclaw-gateway-${profile}.service`;
}

/** `$XDG_CONFIG_HOME/systemd/user` (default `~/.config/systemd/user`): where user units live. */
export function systemdUserUnitDir(env: NodeJS.ProcessEnv, home: string): string {
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  return path.join(config, "systemd", "user");
}

/** systemd learned `RestartSteps=` and `RestartMaxDelaySec=` (growing restart delays) in version 254. */
export const SYSTEMD_RESTART_STEPS_VERSION = 254;

export interface SystemdUnitOptions {
  launch: GatewayLaunch;
  /** The host's systemd version; from 254 on, restart delays grow from 5 s to 5 min. Default: 0 (fixed 5 s delay). */
  systemdVersion?: number;
  /** What `Description=` says. Default "OpenClaw gateway". */
  description?: string;
}

/**
 * The text of the gateway's systemd user unit. It restarts the gateway when it fails (not after a
 * clean stop), 5 s later, growing to 5 min on systemd 254 and newer; gives up after 10 failures in
 * 10 min (`systemctl --user reset-failed` and `start` resume it); reads optional secrets from
 * `<stateDir>/gateway.env`; and stops it with SIGTERM, allowing 30 s for the graceful shutdown.
 */
export function renderSystemdUnit(options: SystemdUnitOptions): string {
  const { launch } = options;
  const backoff = (options.systemdVersion ?? 0) >= SYSTEMD_RESTART_STEPS_VERSION ? ["RestartSteps=6", "RestartMaxDelaySec=300"] : [];
  const lines = [
    "# Written by `openclaw gateway install` (see docs/service.md); `openclaw gateway uninstall` removes it.",
    "[Unit]",
    `Description=${options.description ?? "OpenClaw gateway"}`,
    "After=network-online.target",
    "Wants=network-online.target",
    "StartLimitIntervalSec=600",
    "StartLimitBurst=10",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${[launch.program, ...launch.args].map(quoteSystemdArg).join(" ")}`,
    `WorkingDirectory=${quoteSystemdPath(launch.stateDir)}`,
    ...Object.entries(launch.env)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => `Environment=${quoteSystemdArg(`${key}=${value}`)}`),
    `EnvironmentFile=-${quoteSystemdPath(path.join(launch.stateDir, "gateway.env"))}`,
    "Restart=on-failure",
    "RestartSec=5",
    ...backoff,
    "KillSignal=SIGTERM",
    "TimeoutStopSec=30",
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ];
  return lines.join("\n");
}

/** An ExecStart/Environment word: quoted when it holds spaces or quotes; `%` and `$` escaped so systemd takes it literally. */
export function quoteSystemdArg(word: string): string {
  const escaped = word.replace(/%/g, "%%").replace(/\$/g, "$$$$");
  if (!/[\s"'\\]/.test(escaped) && escaped !== "") return escaped;
  return `"${escaped.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A path setting (WorkingDirectory=, EnvironmentFile=): taken whole by systemd, only `%` needs escaping. */
function quoteSystemdPath(p: string): string {
  return p.replace(/%/g, "%%");
}
