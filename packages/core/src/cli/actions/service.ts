// `openclaw gateway install|uninstall|start|stop|restart|status`, loaded only when one runs.
import { type ServiceContext, type ServiceStatus, lingerNotes, serviceManagerFor } from "../../service/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

export type ServiceVerb = "install" | "uninstall" | "start" | "stop" | "restart" | "status";

/** Runs one service verb against this platform's manager; `deps` replaces the host's (tests). */
export async function runServiceCommand(
  ctx: CliContext,
  verb: ServiceVerb,
  opts: { json?: boolean } = {},
  deps: Partial<ServiceContext> = {},
): Promise<void> {
  const manager = serviceManagerFor({ paths: ctx.paths(), env: process.env, ...deps });
  const out = ctx.stdout;
  switch (verb) {
    case "install": {
      const result = await manager.install();
      for (const note of result.notes) writeLine(out, note);
      if (!result.started) process.exitCode = 1;
      return;
    }
    case "uninstall": {
      const { removed, unitPath } = await manager.uninstall();
      writeLine(out, removed ? `stopped the gateway service and removed ${unitPath}` : `no gateway service installed (no ${unitPath})`);
      return;
    }
    case "start":
    case "stop":
    case "restart":
      await manager[verb]();
      writeLine(
        out,
        `gateway service: ${verb === "stop" ? "stopped" : `${verb}ed`} (see \`openclaw gateway status\`, \`openclaw logs -f\`)`,
      );
      return;
    case "status": {
      const status = await manager.status();
      if (opts.json) writeJson(out, status);
      else for (const line of describeServiceStatus(status)) writeLine(out, line);
      // Scripts can test the exit code: 0 running, 3 installed but not running (as systemctl is-active), 4 not installed.
      if (!status.running) process.exitCode = status.installed ? 3 : 4;
      return;
    }
  }
}

/** Lines telling a user how the service is, with what to run next. */
export function describeServiceStatus(status: ServiceStatus): string[] {
  if (!status.installed) return [`Service: not installed (${status.manager}; run \`openclaw gateway install\`)`];
  const lines = [
    `Service: ${status.running ? "running" : "not running"} — ${status.manager} ${status.name}, ${status.state}${status.pid ? `, pid ${status.pid}` : ""}`,
    `Unit: ${status.path}`,
  ];
  if (status.problem) lines.push(`Could not ask ${status.manager}: ${status.problem}`);
  if (!status.running && !status.problem) lines.push("Start it with `openclaw gateway start`; see why it stopped with `openclaw logs`.");
  if (status.manager === "systemd" && status.linger !== true) lines.push(...lingerNotes(status.linger));
  return lines;
}
