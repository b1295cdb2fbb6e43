import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { homedir, userInfo } from "node:os";
import path from "node:path";
import { UserError } from "../config/paths.js";
import { resolveGatewayLaunch } from "./launch.js";
import { type CommandRunner, execRunner, firstLine, type RunResult } from "./runner.js";
import { renderSystemdUnit, systemdUnitName, systemdUserUnitDir } from "./systemd-unit.js";
import type { InstallResult, ServiceContext, ServiceManager, ServiceStatus } from "./types.js";

/** The systemd user unit of the gateway, driven with `systemctl --user`. */
export class SystemdServiceManager implements ServiceManager {
  readonly kind = "systemd" as const;
  readonly unitName: string;
  readonly unitPath: string;
  private readonly run: CommandRunner;

  constructor(private readonly ctx: ServiceContext) {
    const home = ctx.home ?? ctx.env.HOME ?? homedir();
    this.unitName = systemdUnitName(ctx.paths.profile);
    this.unitPath = path.join(systemdUserUnitDir(ctx.env, home), this.unitName);
    this.run = ctx.runner ?? execRunner;
  }

  async install(): Promise<InstallResult> {
    const launch = resolveGatewayLaunch(this.ctx);
    const systemdVersion = parseSystemdVersion((await this.run("systemctl", ["--version"])).stdout);
    await mkdir(path.dirname(this.unitPath), { recursive: true });
    await mkdir(launch.logDir, { recursive: true });
    await writeFile(this.unitPath, renderSystemdUnit({ launch, systemdVersion }), { mode: 0o644 });
    const notes = [`wrote ${this.unitPath}`];
    const reload = await this.systemctl("daemon-reload");
    const enabled = reload.code === 0 ? await this.systemctl("enable", this.unitName) : reload;
    const started = enabled.code === 0 ? await this.systemctl("restart", this.unitName) : enabled;
    if (started.code !== 0) {
      notes.push(
        `systemctl --user could not start it: ${firstLine(started)}`,
        "The systemd user manager is reachable only from a login session of this user (not from `sudo su` or a plain container).",
        `Log in as this user and run: systemctl --user daemon-reload && systemctl --user enable --now ${this.unitName}`,
      );
      return { unitPath: this.unitPath, started: false, notes };
    }
    notes.push(`enabled and started ${this.unitName} (restarts on failure; logs: openclaw logs -f)`);
    notes.push(...lingerNotes(await this.linger()));
    return { unitPath: this.unitPath, started: true, notes };
  }

  async uninstall(): Promise<{ removed: boolean; unitPath: string }> {
    if (!existsSync(this.unitPath)) return { removed: false, unitPath: this.unitPath };
    // A manager that cannot be reached has nothing running from this file; remove it anyway.
    await this.systemctl("disable", "--now", this.unitName);
    await rm(this.unitPath, { force: true });
    await this.systemctl("daemon-reload");
    return { removed: true, unitPath: this.unitPath };
  }

  async start(): Promise<void> {
    await this.must("start");
  }

  async stop(): Promise<void> {
    await this.must("stop");
  }

  async restart(): Promise<void> {
    await this.must("restart");
  }

  async status(): Promise<ServiceStatus> {
    const base = { manager: this.kind, name: this.unitName, path: this.unitPath };
    if (!existsSync(this.unitPath)) return { ...base, installed: false, running: false, state: "not installed" };
    const shown = await this.systemctl("show", this.unitName, "--property=ActiveState,SubState,MainPID,Result", "--no-pager");
    if (shown.code !== 0) return { ...base, installed: true, running: false, state: "unknown", problem: firstLine(shown) };
    const props = parseProperties(shown.stdout);
    const pid = Number(props.MainPID ?? 0);
    const running = props.ActiveState === "active" && props.SubState === "running";
    const result = props.Result && props.Result !== "success" ? `, ${props.Result}` : "";
    const linger = await this.linger();
    return {
      ...base,
      installed: true,
      running,
      state: `${props.ActiveState ?? "unknown"} (${props.SubState ?? "unknown"}${result})`,
      ...(pid > 0 ? { pid } : {}),
      ...(linger !== undefined ? { linger } : {}),
    };
  }

  private systemctl(...args: string[]): Promise<RunResult> {
    return this.run("systemctl", ["--user", ...args]);
  }

  private async must(verb: "start" | "stop" | "restart"): Promise<void> {
    if (!existsSync(this.unitPath)) {
      throw new UserError(`The gateway service is not installed (no ${this.unitPath}); run \`openclaw gateway install\` first.`);
    }
    const result = await this.systemctl(verb, this.unitName);
    if (result.code !== 0) {
      throw new UserError(
        `systemctl --user ${verb} ${this.unitName} failed: ${firstLine(result)}\nSee \`systemctl --user status ${this.unitName}\` and \`openclaw logs\`.`,
      );
    }
  }

  /** Whether loginctl says this user lingers; undefined when it cannot tell. */
  private async linger(): Promise<boolean | undefined> {
    const user = this.ctx.env.USER ?? userInfo().username;
    const shown = await this.run("loginctl", ["show-user", user, "--property=Linger", "--value"]);
    if (shown.code !== 0) return undefined;
    const value = shown.stdout.trim();
    return value === "yes" ? true : value === "no" ? false : undefined;
  }
}

/** What a user needs to know about lingering, given loginctl's answer. */
export function lingerNotes(linger: boolean | undefined): string[] {
  if (linger === true) return ["Linger is on: the gateway starts at boot and keeps running after you log out."];
  return [
    linger === false
      ? "Linger is off: systemd stops your user services when you log out, and starts them only when you log in."
      : "Could not tell whether linger is on (loginctl show-user failed).",
    "To keep the gateway running after logout and start it at boot, run: sudo loginctl enable-linger $USER",
  ];
}

/** `systemd 252 (252.38-1~deb12u1)` → 252; 0 when unknown. */
export function parseSystemdVersion(text: string): number {
  const match = /^systemd (\d+)/m.exec(text);
  return match ? Number(match[1]) : 0;
}

function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}
