// `openclaw channels login|logout <channel>`, loaded only when they run: links an account of a
// channel whose plugin declares `login` (QR code or pairing code), or unlinks it.
import { readdirSync } from "node:fs";
import path from "node:path";
import { AccountConfigError, type ChannelLoginContext, type PluginLogger } from "@openclaw/plugin-sdk";
import { UserError } from "../../config/index.js";
import { loginCommandFor, readLiveGatewayRecord, resolveLoginTarget, type LoginTarget } from "../../gateway/index.js";
import type { CliContext } from "../context.js";
import { writeLine } from "../output.js";
import { renderTerminalQr } from "../terminal-qr.js";

export interface ChannelLoginOptions {
  account?: string;
  pairingCode?: string;
  /** Seconds to wait for the phone (default 300). */
  timeout?: string;
  verbose?: boolean;
}

export interface ChannelLogoutOptions {
  account?: string;
  verbose?: boolean;
}

const DEFAULT_TIMEOUT_S = 300;
/** How long a cancelled or timed-out login gets to close its connection before the CLI exits. */
const CLOSE_GRACE_MS = 2000;
const E164 = /^\+[1-9]\d{6,14}$/;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}

function pluginLog(ctx: CliContext, tag: string, verbose: boolean): PluginLogger {
  const line = (level: string, message: string, data?: Record<string, unknown>) =>
    writeLine(ctx.stderr, `[${tag}] ${level}${message}${data && Object.keys(data).length ? ` ${JSON.stringify(data)}` : ""}`);
  return {
    debug: (m, d) => verbose && line("", m, d),
    info: (m, d) => verbose && line("", m, d),
    warn: (m, d) => line("warning: ", m, d),
    error: (m, d) => line("error: ", m, d),
  };
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UserError(`--timeout must be a number of seconds above 0 (got "${value}").`, 2);
  return seconds * 1000;
}

/** The pid of a gateway running on this state folder, from `<stateDir>/gateway.json`. */
function runningGatewayPid(ctx: CliContext): number | undefined {
  return readLiveGatewayRecord(ctx.paths().stateDir)?.pid;
}

/** Settles when `promise` settles or `ms` passed, whichever is first (never rejects). */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    promise.then(
      () => resolve(),
      () => resolve(),
    );
  });
}

/** Exits once the command is done, even when a plugin left a socket or timer open. */
export function exitSoon(): void {
  setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
}

/** Fires on Ctrl-C (SIGINT) until `dispose` is called. */
function interruptSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new DOMException("interrupted (Ctrl-C)", "AbortError"));
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}

function baseContext(
  ctx: CliContext,
  target: LoginTarget,
  signal: AbortSignal,
  verbose: boolean,
): Omit<ChannelLoginContext<unknown>, "method" | "showQr" | "showPairingCode"> {
  return {
    accountId: target.accountId,
    account: target.account,
    credentialsDir: target.credentialsDir,
    log: pluginLog(ctx, `${target.channel}:${target.accountId}`, verbose),
    signal,
  };
}

/** The account `--account` names (or the channel's default), with its plugin and `channel:account` tag. */
async function loginTarget(ctx: CliContext, channel: string, accountId: string | undefined) {
  const target = await resolveLoginTarget({ paths: ctx.paths(), env: process.env, channel, ...(accountId ? { accountId } : {}) });
  return { target, plugin: target.plugin, tag: `${channel}:${target.accountId}` };
}

/**
 * Links one account: renders each QR code the plugin shows (or prints the pairing code), prints
 * `Linked as <identity>.` and exits 0. Ctrl-C cancels (exit 130), as does `--timeout` (exit 1).
 * A gateway already running connects the account by itself only if its plugin watches for the
 * link (else at its next start); the command says so.
 */
export async function runChannelsLoginCommand(
  ctx: CliContext,
  channel: string,
  opts: ChannelLoginOptions,
  /** `exitWhenDone: false` when a caller (the onboarding wizard) goes on afterwards and exits itself. */
  behaviour: { exitWhenDone?: boolean } = {},
): Promise<void> {
  if (opts.pairingCode !== undefined && !E164.test(opts.pairingCode)) {
    throw new UserError(
      `--pairing-code needs the phone number to link, in E.164 form: a plus sign, the country code and the number, e.g. +15551234567 (got "${opts.pairingCode}").`,
      2,
    );
  }
  const timeoutMs = parseTimeout(opts.timeout);
  const { target, plugin, tag } = await loginTarget(ctx, channel, opts.account);
  if (!plugin.login) {
    throw new UserError(
      `channel ${channel} needs no login; its accounts connect with the keys under channels.${channel} in ${target.configPath} (see ${plugin.meta.docsPath}).`,
    );
  }

  const interrupt = interruptSignal();
  // A timer of our own (not AbortSignal.timeout, which is unref'd) also keeps the process alive
  // while a plugin waits for the phone without an open handle.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException("the login timed out", "TimeoutError")), timeoutMs);
  const signal = AbortSignal.any([interrupt.signal, timeout.signal]);
  let printing: Promise<void> = Promise.resolve();
  let shown = 0;
  const out = ctx.stdout;
  const label = plugin.meta.label;
  const loginCtx: ChannelLoginContext<unknown> = {
    ...baseContext(ctx, target, signal, opts.verbose === true),
    method: opts.pairingCode ? { kind: "pairing-code", phoneNumber: opts.pairingCode } : { kind: "qr" },
    showQr: (data) => {
      shown += 1;
      const heading =
        shown === 1
          ? `Scan this QR code with ${label} on your phone to link ${tag} (it changes every little while; Ctrl-C to cancel):`
          : "The QR code changed; scan this one:";
      printing = printing.then(async () => {
        const qr = await renderTerminalQr(data);
        writeLine(out, "");
        writeLine(out, heading);
        writeLine(out, qr);
      });
    },
    showPairingCode: (code) => {
      printing = printing.then(() => {
        writeLine(out, `Pairing code for ${opts.pairingCode ?? "your phone"}: ${code}`);
        writeLine(out, `Enter it on that phone when ${label} asks for a pairing code; Ctrl-C to cancel.`);
      });
    },
  };

  const login = plugin.login(loginCtx);
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  try {
    const result = await Promise.race([login, aborted]);
    await printing;
    writeLine(out, `Linked as ${result.identity}.`);
    const pid = runningGatewayPid(ctx);
    if (pid === undefined) writeLine(out, `The gateway connects ${tag} when it starts (\`openclaw gateway\`).`);
    else
      writeLine(
        out,
        `A gateway is running on this state folder (pid ${pid}): it connects ${tag} by itself if the channel watches for new links, else at its next start. \`openclaw channels status\` shows which; restart the gateway if the account still needs linking.`,
      );
  } catch (err) {
    await printing.catch(() => undefined);
    if (signal.aborted) {
      await settledWithin(login, CLOSE_GRACE_MS);
      if (interrupt.signal.aborted) throw new UserError(`Login cancelled (Ctrl-C); ${tag} was not linked.`, 130);
      throw new UserError(
        `No phone linked ${tag} within ${timeoutMs / 1000} s; run \`${loginCommandFor(channel, target.accountId)}\` again (or pass --timeout <seconds>).`,
      );
    }
    if (err instanceof AccountConfigError) throw new UserError(`${target.configPath}: ${err.message} (${err.path})`);
    throw new UserError(`Linking ${tag} failed: ${errorText(err)}`);
  } finally {
    clearTimeout(timer);
    interrupt.dispose();
    if (behaviour.exitWhenDone !== false) exitSoon();
  }
}

/** Every file under `dir`, as paths relative to it (empty when it does not exist). */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

/** Unlinks one account through its plugin's `logout` and prints which files left its credentials folder. */
export async function runChannelsLogoutCommand(ctx: CliContext, channel: string, opts: ChannelLogoutOptions): Promise<void> {
  const { target, plugin, tag } = await loginTarget(ctx, channel, opts.account);
  if (!plugin.logout) {
    throw new UserError(
      `channel ${channel} needs no logout; remove its keys under channels.${channel} in ${target.configPath} to stop using the account.`,
    );
  }
  const before = listFiles(target.credentialsDir);
  const interrupt = interruptSignal();
  try {
    await plugin.logout({
      ...baseContext(ctx, target, interrupt.signal, opts.verbose === true),
      method: { kind: "qr" },
      showQr: () => undefined,
      showPairingCode: () => undefined,
    });
  } catch (err) {
    if (interrupt.signal.aborted) throw new UserError(`Logout cancelled (Ctrl-C); ${tag} may still be linked.`, 130);
    throw new UserError(`Logging out ${tag} failed: ${errorText(err)}`);
  } finally {
    interrupt.dispose();
    exitSoon();
  }
  const after = new Set(listFiles(target.credentialsDir));
  const removed = before.filter((f) => !after.has(f));
  if (removed.length === 0) {
    writeLine(ctx.stdout, `Logged out ${tag}; nothing was removed from ${target.credentialsDir} (it held no login state).`);
  } else {
    writeLine(
      ctx.stdout,
      `Logged out ${tag}; removed ${removed.length} file${removed.length === 1 ? "" : "s"} from ${target.credentialsDir}:`,
    );
    for (const file of removed) writeLine(ctx.stdout, `  ${file}`);
  }
  writeLine(ctx.stdout, `Link it again with \`${loginCommandFor(channel, target.accountId)}\`.`);
  const pid = runningGatewayPid(ctx);
  if (pid !== undefined) {
    writeLine(
      ctx.stdout,
      `A gateway is running on this state folder (pid ${pid}): restart it if \`openclaw channels status\` still shows ${tag} connected.`,
    );
  }
}
