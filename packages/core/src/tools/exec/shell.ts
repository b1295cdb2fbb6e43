import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { buildExecEnv } from "./environment.js";

/** Time a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** How long to wait for output pipes to close after the shell exits (a background grandchild may hold them). */
const DRAIN_MS = 200;

export interface ShellExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started. */
  spawnError?: string;
}

export interface StartShellOptions {
  command: string;
  cwd: string;
  /** The command's whole environment (default: {@link buildExecEnv}, the gateway's environment scrubbed of secrets). */
  env?: Record<string, string>;
}

/**
 * A `/bin/sh -c` command in its own process group (so the whole tree can be signalled), stdin
 * closed, stdout and stderr merged in arrival order and decoded as UTF-8.
 */
export class ShellProcess {
  readonly startedAt = Date.now();
  readonly done: Promise<ShellExit>;
  exit: ShellExit | undefined;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<(text: string) => void>();
  private killTimer: NodeJS.Timeout | undefined;
  private killRequested = false;

  constructor(options: StartShellOptions) {
    this.child = spawn("/bin/sh", ["-c", options.command], {
      cwd: options.cwd,
      env: options.env ?? buildExecEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const out = new StringDecoder("utf8");
    const err = new StringDecoder("utf8");
    this.child.stdout!.on("data", (b: Buffer) => this.emit(out.write(b)));
    this.child.stderr!.on("data", (b: Buffer) => this.emit(err.write(b)));
    this.done = new Promise<ShellExit>((resolve) => {
      let settled = false;
      const finish = (exit: ShellExit) => {
        if (settled) return;
        settled = true;
        this.emit(out.end() + err.end());
        if (this.killTimer) clearTimeout(this.killTimer);
        this.exit = exit;
        resolve(exit);
      };
      this.child.once("error", (e) => finish({ exitCode: null, signal: null, spawnError: e.message }));
      this.child.once("exit", (code, signal) => {
        const exit = { exitCode: code, signal };
        if (this.child.stdout!.readableEnded && this.child.stderr!.readableEnded) return finish(exit);
        const timer = setTimeout(() => {
          this.child.stdout!.destroy();
          this.child.stderr!.destroy();
          finish(exit);
        }, DRAIN_MS);
        this.child.once("close", () => {
          clearTimeout(timer);
          finish(exit);
        });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Subscribes to output text; returns the unsubscribe function. */
  onOutput(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(text: string): void {
    if (text.length === 0) return;
    for (const l of this.listeners) l(text);
  }

  /** SIGTERM to the whole process group, SIGKILL after {@link KILL_GRACE_MS}. Resolves when the shell has exited. */
  kill(): Promise<ShellExit> {
    if (!this.running || this.killRequested) return this.done;
    this.killRequested = true;
    signalGroup(this.child.pid, "SIGTERM");
    this.killTimer = setTimeout(() => signalGroup(this.child.pid, "SIGKILL"), KILL_GRACE_MS);
    this.killTimer.unref();
    // Members that outlive the shell still get the SIGKILL.
    void this.done.then(() => {
      if (groupAlive(this.child.pid)) setTimeout(() => signalGroup(this.child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
    });
    return this.done;
  }

  get killed(): boolean {
    return this.killRequested;
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
