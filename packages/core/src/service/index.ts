// The gateway as a service: a systemd user unit on Linux, a launchd agent on macOS.
import { UserError } from "../config/paths.js";
import { LaunchdServiceManager } from "./launchd.js";
import { SystemdServiceManager } from "./systemd.js";
import type { ServiceContext, ServiceManager } from "./types.js";

export { CARRIED_ENV, type GatewayLaunch, resolveGatewayLaunch } from "./launch.js";
export { launchdLabel, launchdPlistPath, renderLaunchdPlist } from "./launchd-plist.js";
export { LaunchdServiceManager } from "./launchd.js";
export { type CommandRunner, createExecRunner, execRunner, firstLine, type RunResult } from "./runner.js";
export { lingerNotes, parseSystemdVersion, SystemdServiceManager } from "./systemd.js";
export { quoteSystemdArg, renderSystemdUnit, SYSTEMD_RESTART_STEPS_VERSION, systemdUnitName, systemdUserUnitDir } from "./systemd-unit.js";
export type { InstallResult, ServiceContext, ServiceManager, ServiceStatus } from "./types.js";

/** The service manager of this platform: systemd on Linux, launchd on macOS; a UserError elsewhere. */
export function serviceManagerFor(ctx: ServiceContext): ServiceManager {
  const platform = ctx.platform ?? process.platform;
  if (platform === "linux") return new SystemdServiceManager(ctx);
  if (platform === "darwin") return new LaunchdServiceManager(ctx);
  throw new UserError(
    `Running the gateway as a service is supported on Linux (systemd) and macOS (launchd), not on ${platform}; run \`openclaw gateway\` under your own supervisor instead (see docs/service.md).`,
  );
}

/**
 * Installs the gateway as a user service and starts it, as `openclaw gateway install` does: writes
 * the unit (or plist) running the same Node and CLI entry as this process, enables it and
 * (re)starts it; prints what it did and what to do next (linger, an unreachable manager) to
 * `stdout`. Never throws when only the start failed: `started` is false then.
 */
export async function installService(
  opts: { stdout: NodeJS.WritableStream } & Omit<ServiceContext, "env"> & { env?: NodeJS.ProcessEnv },
): Promise<{ unitPath: string; started: boolean }> {
  const { stdout, ...ctx } = opts;
  const result = await serviceManagerFor({ ...ctx, env: ctx.env ?? process.env }).install();
  for (const note of result.notes) stdout.write(`${note}\n`);
  return { unitPath: result.unitPath, started: result.started };
}
