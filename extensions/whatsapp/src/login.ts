/**
 * Linking and unlinking (`openclaw channels login|logout whatsapp`). `login` opens a socket with
 * the account's auth state: each QR code WhatsApp offers goes to `ctx.showQr` (or, with the
 * pairing-code method, Baileys' `requestPairingCode` and `ctx.showPairingCode`), the restart that
 * follows a scan is taken at once, and it resolves with the linked number once the socket is open
 * and the creds are on disk. `logout` unlinks the device on WhatsApp's side and removes the auth
 * state.
 */
import type { ChannelLoginContext, ChannelLoginResult } from "@openclaw/plugin-sdk";
import { jidDecode } from "./baileys.js";
import type { WhatsAppAccount } from "./account.js";
import { isLinked, removeAuthState, useFileAuthState } from "./auth-state.js";
import { WhatsAppConnection } from "./connection.js";
import type { WhatsAppRuntime } from "./runtime.js";
import type { WhatsAppSocketLike } from "./socket.js";

/** Few quick retries while linking: the user is waiting at the terminal. */
const LOGIN_RECONNECT = { initialMs: 1000, maxMs: 5000, factor: 2, jitter: 0.2, maxAttempts: 3 };

/** `15550001111:3@s.whatsapp.net` -> `+15550001111`. */
function identityOf(socket: WhatsAppSocketLike): string {
  const user = socket.user?.id ? jidDecode(socket.user.id)?.user : undefined;
  return user ? `+${user}` : "(unknown number)";
}

/** One socket run that ends at the first open: the open socket's identity, or why it ended. */
async function openOnce(
  ctx: ChannelLoginContext<WhatsAppAccount>,
  rt: WhatsAppRuntime,
  onQr: (qr: string, socket: WhatsAppSocketLike) => boolean,
  onOpen: (socket: WhatsAppSocketLike) => Promise<void>,
): Promise<{ identity?: string; outcome: string }> {
  const auth = await useFileAuthState(ctx.credentialsDir);
  const stop = new AbortController();
  const abort = (): void => stop.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", abort, { once: true });
  let identity: string | undefined;
  const connection = new WhatsAppConnection({
    auth,
    makeSocket: rt.makeSocket,
    socketConfig: () => rt.socketConfig(ctx.log),
    clock: rt.clock,
    signal: stop.signal,
    reconnect: LOGIN_RECONNECT,
    watchdogMs: rt.watchdogMs,
    log: ctx.log,
    onQr,
    onOpen(socket) {
      identity = identityOf(socket);
      onOpen(socket)
        .catch((error: Error) => ctx.log.warn(`WhatsApp: ${error.message}`))
        .finally(() => stop.abort(new Error("done")));
    },
  });
  try {
    const outcome = await connection.run();
    await auth.flush();
    return { outcome, ...(identity !== undefined ? { identity } : {}) };
  } finally {
    ctx.signal.removeEventListener("abort", abort);
  }
}

/** Links the account (see the module comment); rejects when the user gives up or WhatsApp refuses. */
export async function loginWhatsApp(ctx: ChannelLoginContext<WhatsAppAccount>, rt: WhatsAppRuntime): Promise<ChannelLoginResult> {
  const { method } = ctx;
  const pairingFor = new WeakSet<WhatsAppSocketLike>();
  const onQr = (qr: string, socket: WhatsAppSocketLike): boolean => {
    if (method.kind === "qr") {
      ctx.showQr(qr);
      return true;
    }
    // The pairing code is asked for once per socket, when it is ready to register.
    if (!pairingFor.has(socket)) {
      pairingFor.add(socket);
      const digits = method.phoneNumber.replace(/\D/g, "");
      socket.requestPairingCode(digits).then(
        (code) => ctx.showPairingCode(code),
        (error: Error) => ctx.log.error(`WhatsApp: asking for a pairing code failed: ${error.message}`),
      );
    }
    return true;
  };

  const existing = await useFileAuthState(ctx.credentialsDir);
  if (!isLinked(existing.state.creds)) await removeAuthState(ctx.credentialsDir);
  for (let round = 0; round < 2; round++) {
    const result = await openOnce(ctx, rt, onQr, async () => undefined);
    if (result.identity !== undefined) {
      ctx.log.info(`WhatsApp: linked as ${result.identity}`);
      return { identity: result.identity };
    }
    if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("login cancelled");
    // Saved creds WhatsApp no longer accepts (unlinked on the phone): start over with a new QR code.
    if (result.outcome === "logged-out" && round === 0) {
      ctx.log.info("WhatsApp: the saved login was refused (logged out); linking anew");
      await removeAuthState(ctx.credentialsDir);
      continue;
    }
    break;
  }
  throw new Error("WhatsApp did not link the device; run `openclaw channels login whatsapp` again");
}

/**
 * Unlinks the account: tells WhatsApp (when the saved login still connects within
 * `reconnectWaitMs`) and removes the auth state either way.
 */
export async function logoutWhatsApp(ctx: ChannelLoginContext<WhatsAppAccount>, rt: WhatsAppRuntime): Promise<void> {
  const auth = await useFileAuthState(ctx.credentialsDir);
  if (isLinked(auth.state.creds)) {
    const timeout = new AbortController();
    const timer = rt.clock.setTimeout(() => timeout.abort(new Error("timed out")), rt.reconnectWaitMs);
    const signal = AbortSignal.any([ctx.signal, timeout.signal]);
    const result = await openOnce(
      { ...ctx, signal },
      rt,
      () => false,
      (socket) => socket.logout(),
    ).catch((error: Error) => ({ outcome: `failed: ${error.message}` }) as { outcome: string; identity?: string });
    rt.clock.clearTimeout(timer);
    if (result.identity === undefined)
      ctx.log.warn("WhatsApp: could not reach WhatsApp to unlink the device; remove it under Linked devices on the phone");
  }
  await removeAuthState(ctx.credentialsDir);
}
