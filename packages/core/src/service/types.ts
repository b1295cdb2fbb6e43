import type { OpenClawPaths } from "../config/paths.js";
import type { CommandRunner } from "./runner.js";

/** What every service operation needs; all of it injectable so tests never touch the host. */
export interface ServiceContext {
  paths: OpenClawPaths;
  /** The installing shell's environment (PATH, OPENCLAW_* and XDG_CONFIG_HOME are read). */
  env: NodeJS.ProcessEnv;
  /** Default: `env.HOME`, else the OS home directory. */
  home?: string;
  /** Default: the real one (`execFile`). */
  runner?: CommandRunner;
  /** Default `process.platform`; "linux" uses systemd, "darwin" launchd, anything else is refused. */
  platform?: NodeJS.Platform;
  /** Default `process.execPath` (see `resolveGatewayLaunch`). */
  execPath?: string;
  /** Default `process.argv[1]`. */
  entry?: string;
  /** The user's numeric id for launchd's `gui/<uid>` domain; default `process.getuid()`. */
  uid?: number;
}

/** What `status` found. */
export interface ServiceStatus {
  manager: "systemd" | "launchd";
  /** The unit or agent name (`openclaw-gateway.service`, `ai.openclaw.gateway`). */
  name: string;
  /** The unit file or plist. */
  path: string;
  /** True when the unit file or plist exists. */
  installed: boolean;
  /** True when the service manager reports the gateway process running. */
  running: boolean;
  /** The manager's own words (`active (running)`, `failed (exit-code)`, `not loaded`, ...). */
  state: string;
  pid?: number;
  /** systemd only: whether the user's services keep running after logout (`loginctl enable-linger`). */
  linger?: boolean;
  /** Why the manager could not be asked, when it could not. */
  problem?: string;
}

/** What `install` did. */
export interface InstallResult {
  /** The unit file or plist written. */
  unitPath: string;
  /** True when the manager accepted it and the gateway was started. */
  started: boolean;
  /** Lines for the user: what was done, what to do next (linger, a manager that could not be reached). */
  notes: string[];
}

/** One platform's service manager. */
export interface ServiceManager {
  readonly kind: "systemd" | "launchd";
  /** Writes the unit (replacing an older one), enables it at login/boot and (re)starts it. */
  install(): Promise<InstallResult>;
  /** Stops and disables the service and deletes the unit; `removed` is false when none was installed. */
  uninstall(): Promise<{ removed: boolean; unitPath: string }>;
  start(): Promise<void>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  status(): Promise<ServiceStatus>;
}
