import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { UserError } from "../config/paths.js";
import { resolveGatewayLaunch } from "./launch.js";
import { launchdLabel, launchdPlistPath, renderLaunchdPlist } from "./launchd-plist.js";
import { type CommandRunner, execRunner, firstLine, type RunResult } from "./runner.js";
import type { InstallResult, ServiceContext, ServiceManager, ServiceStatus } from "./types.js";

/** The gateway's launchd agent in the user's GUI domain, driven with `launchctl`. */
export class LaunchdServiceManager implements ServiceManager {
  readonly kind = "launchd" as const;
  readonly label: string;
  readonly plistPath: string;
  private readonly run: CommandRunner;
  private readonly domain: string;

  constructor(private readonly ctx: ServiceContext) {
    this.label = launchdLabel(ctx.paths.profile);
    this.plistPath = launchdPlistPath(ctx.home ?? ctx.env.HOME ?? homedir(), this.label);
    this.run = ctx.runner ?? execRunner;
    this.domain = `gui/${ctx.uid ?? process.getuid?.() ?? 501}`;
  }

  private get target(): string {
    return `${this.domain}/${this.label}`;
  }

  async install(): Promise<InstallResult> {
    const launch = resolveGatewayLaunch(this.ctx);
    await mkdir(path.dirname(this.plistPath), { recursive: true });
    await mkdir(launch.logDir, { recursive: true });
    await writeFile(this.plistPath, renderLaunchdPlist(launch, this.label), { mode: 0o644 });
    const notes = [`wrote ${this.plistPath}`];
    // An older copy may be loaded; unload it so the new plist is the one launchd runs.
    await this.launchctl("bootout", this.target);
    const loaded = await this.launchctl("bootstrap", this.domain, this.plistPath);
    if (loaded.code !== 0) {
      notes.push(`launchctl bootstrap failed: ${firstLine(loaded)}`, `Try: launchctl bootstrap ${this.domain} ${this.plistPath}`);
      return { unitPath: this.plistPath, started: false, notes };
    }
    notes.push(`loaded ${this.label}: it starts at login and again when it fails (logs: openclaw logs -f)`);
    return { unitPath: this.plistPath, started: true, notes };
  }

  async uninstall(): Promise<{ removed: boolean; unitPath: string }> {
    if (!existsSync(this.plistPath)) return { removed: false, unitPath: this.plistPath };
    await this.launchctl("bootout", this.target);
    await rm(this.plistPath, { force: true });
    return { removed: true, unitPath: this.plistPath };
  }

  async start(): Promise<void> {
    this.mustBeInstalled();
    // Not loaded (stopped with `stop`, or never loaded): bootstrap runs it (RunAtLoad); loaded: kickstart.
    const loaded = (await this.launchctl("print", this.target)).code === 0;
    await this.must(loaded ? ["kickstart", this.target] : ["bootstrap", this.domain, this.plistPath]);
  }

  async stop(): Promise<void> {
    this.mustBeInstalled();
    // bootout unloads the agent, so KeepAlive does not start it again; `start` loads it back.
    await this.must(["bootout", this.target]);
  }

  async restart(): Promise<void> {
    this.mustBeInstalled();
    const loaded = (await this.launchctl("print", this.target)).code === 0;
    await this.must(loaded ? ["kickstart", "-k", this.target] : ["bootstrap", this.domain, this.plistPath]);
  }

  async status(): Promise<ServiceStatus> {
    const base = { manager: this.kind, name: this.label, path: this.plistPath };
    if (!existsSync(this.plistPath)) return { ...base, installed: false, running: false, state: "not installed" };
    const printed = await this.launchctl("print", this.target);
    if (printed.code !== 0) return { ...base, installed: true, running: false, state: "not loaded" };
    const state = /^\s*state = (.+)$/m.exec(printed.stdout)?.[1]?.trim() ?? "unknown";
    const pid = Number(/^\s*pid = (\d+)$/m.exec(printed.stdout)?.[1] ?? 0);
    return { ...base, installed: true, running: state === "running", state, ...(pid > 0 ? { pid } : {}) };
  }

  private launchctl(...args: string[]): Promise<RunResult> {
    return this.run("launchctl", args);
  }

  private mustBeInstalled(): void {
    if (!existsSync(this.plistPath)) {
      throw new UserError(`The gateway service is not installed (no ${this.plistPath}); run \`openclaw gateway install\` first.`);
    }
  }

  private async must(args: string[]): Promise<void> {
    const result = await this.launchctl(...args);
    if (result.code !== 0) {
      throw new UserError(
        `launchctl ${args.join(" ")} failed: ${firstLine(result)}\nSee \`openclaw logs\` and ${path.join(this.ctx.paths.stateDir, "logs", "launchd.log")}.`,
      );
    }
  }
}
