// The real CLI in a real terminal: a detached tmux session (own server socket) whose pane runs a
// command; tests read the screen as a user sees it (`capture-pane -e` keeps the colours) and type
// keys (Ctrl-C) into it.
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";

export const TMUX_AVAILABLE = spawnSync("tmux", ["-V"]).status === 0;

export interface TmuxPane {
  /** The whole pane with its scrollback, SGR colours kept. */
  capture(): string;
  /**
   * Polls the screen until `pattern` shows `times` times (default 1; earlier prompts stay visible),
   * or throws after `timeoutMs` (default 20 s) with the screen. `plain` strips the escape sequences first.
   */
  waitFor(pattern: RegExp, options?: WaitOptions): Promise<string>;
  /** `tmux send-keys`, e.g. "C-c". */
  sendKeys(...keys: string[]): void;
  /** The command's exit code, once it ended (printed by the wrapper as `EXITCODE=<n>`). */
  exitCode(options?: { timeoutMs?: number }): Promise<number>;
  kill(): void;
}

export interface WaitOptions {
  timeoutMs?: number;
  what?: string;
  times?: number;
  plain?: boolean;
}

/** The screen without its escape sequences (colours, cursor moves). */
export const plainText = (screen: string) => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/**
 * Runs `argv` in a 100x200 tmux pane with `env`; the pane stays after the command ended (its exit
 * code is printed last). A Ctrl-C reaches the command, not the wrapper shell.
 */
export function startTmux(argv: string[], options: { env: Record<string, string>; cwd: string }): TmuxPane {
  const socket = `openclaw-test-${randomUUID().slice(0, 8)}`;
  const env = { ...options.env, TERM: "xterm-256color" };
  const command = `trap true INT; ${argv.map(shellQuote).join(" ")}; echo EXITCODE=$?; exec cat`;
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { env, cwd: options.cwd, encoding: "utf8" });
  tmux("new-session", "-d", "-s", "main", "-x", "100", "-y", "200", `sh -c ${shellQuote(command)}`);
  const capture = () => tmux("capture-pane", "-p", "-e", "-S", "-", "-t", "main");
  const waitFor = async (pattern: RegExp, o: WaitOptions = {}) => {
    const deadline = Date.now() + (o.timeoutMs ?? 20_000);
    const global = new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`);
    for (;;) {
      const screen = o.plain ? plainText(capture()) : capture();
      if ((screen.match(global) ?? []).length >= (o.times ?? 1)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${o.what ?? pattern} in the terminal:\n${screen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    capture,
    waitFor,
    sendKeys: (...keys) => void tmux("send-keys", "-t", "main", ...keys),
    exitCode: async (o = {}) => Number(/EXITCODE=(\d+)/.exec(await waitFor(/EXITCODE=\d+/, { ...o, what: "the command to exit" }))![1]),
    kill: () => {
      spawnSync("tmux", ["-L", socket, "kill-server"], { env });
    },
  };
}
