/**
 * `connect(ctx)`: one WhatsApp account's session. Loads the auth state from the account's
 * credentials folder; without a linked device it reports "needs-login" (it never shows a QR code:
 * linking is `openclaw channels login whatsapp`) and picks up the login once it is made. Linked,
 * it keeps one connection up, hands each notified message to `ctx.receive` in order, marks it read,
 * and sends through the outbound side. A logged-out close removes the dead auth state and reports
 * "needs-login" again.
 */
import { readdir } from "node:fs/promises";
import { type AccountContext, type AccountSession, type ChannelOutbound, PermanentSendError } from "@openclaw/plugin-sdk";
import type { WAMessage } from "baileys";
import { jidEncode, jidNormalizedUser } from "./baileys.js";
import type { WhatsAppAccount } from "./account.js";
import { type FileAuthState, isLinked, readSavedCreds, removeAuthState, SerialQueue, useFileAuthState } from "./auth-state.js";
import { sleep } from "./clock.js";
import { WhatsAppConnection } from "./connection.js";
import { normalizeMessage } from "./inbound.js";
import { createWhatsAppOutbound } from "./outbound.js";
import type { WhatsAppRuntime } from "./runtime.js";
import type { WhatsAppSocketLike } from "./socket.js";

/** What the user must do to link an account. */
export function loginHint(accountId: string): string {
  const flag = accountId === "default" ? "" : ` --account ${accountId}`;
  return `run \`openclaw channels login whatsapp${flag}\` and scan the QR code with WhatsApp on the phone (Settings > Linked devices)`;
}

/** A WhatsApp session: the outbound methods, `closed`, and the files of inbound media. */
export type WhatsAppSession = AccountSession &
  Required<Pick<ChannelOutbound, "sendMedia" | "typing">> & {
    /** The file of an inbound media message (`InboundMedia.fileId`) while it is remembered (the last 200). */
    downloadMedia(fileId: string): Promise<Buffer>;
  };

/** Remembers the last `size` entries. */
class Recent<V> {
  readonly #map = new Map<string, V>();
  constructor(readonly size: number) {}
  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.size) this.#map.delete(this.#map.keys().next().value!);
  }
  get(key: string): V | undefined {
    return this.#map.get(key);
  }
  has(key: string): boolean {
    return this.#map.has(key);
  }
}

const LID_FILE = /^lid-mapping-(\d+)_reverse\.json$/;

/** Connects one account; resolves once the socket is open, the account needs linking, or the first wait passed. */
export async function connectWhatsAppAccount(ctx: AccountContext<WhatsAppAccount>, rt: WhatsAppRuntime): Promise<WhatsAppSession> {
  const { account, log, signal } = ctx;
  ctx.status({ state: "starting" });
  const inbound = new Recent<WAMessage>(200);
  const sentIds = new Recent<true>(500);
  const lids = new Map<string, string>();
  const receiving = new SerialQueue();
  let current: { connection: WhatsAppConnection; auth: FileAuthState } | undefined;
  let own: { jid?: string; lid?: string } = {};

  const notLinked = {
    whenOpen: () =>
      Promise.reject(
        new PermanentSendError(`WhatsApp account "${ctx.accountId}" is not linked: ${loginHint(ctx.accountId)}.`, "not_linked"),
      ),
    get openSocket() {
      return undefined;
    },
  };
  const outbound = createWhatsAppOutbound({
    account,
    connection: {
      whenOpen: (timeoutMs, s) => (current ? current.connection.whenOpen(timeoutMs, s) : notLinked.whenOpen()),
      get openSocket() {
        return current?.connection.openSocket;
      },
    },
    reconnectWaitMs: rt.reconnectWaitMs,
    rateLimitedWaitMs: rt.rateLimitedWaitMs,
    inboundMessage: (id) => inbound.get(id),
    onSent: (id) => sentIds.set(id, true),
  });

  const loadLids = async (): Promise<void> => {
    const names = await readdir(ctx.credentialsDir).catch(() => [] as string[]);
    for (const name of names) {
      const match = LID_FILE.exec(name);
      const pn = match ? await current?.auth.readJson<string>(name) : undefined;
      if (match && typeof pn === "string") lids.set(jidEncode(match[1]!, "lid"), jidEncode(pn, "s.whatsapp.net"));
    }
  };

  const handleUpsert = (socket: WhatsAppSocketLike, upsert: { type?: string; messages?: unknown }): void => {
    if (upsert?.type !== "notify" || !Array.isArray(upsert.messages)) {
      log.debug(`WhatsApp: messages.upsert of type ${String(upsert?.type)} skipped`);
      return;
    }
    for (const raw of upsert.messages as WAMessage[]) {
      const message = normalizeMessage(raw, {
        channel: "whatsapp",
        accountId: ctx.accountId,
        ownJid: own.jid,
        ownLid: own.lid,
        selfChatMode: account.selfChatMode,
        sentByBot: (id) => sentIds.has(id),
        numberOfLid: (lid) => lids.get(lid),
        now: Date.now(),
      });
      if (typeof message === "string") {
        log.debug(`WhatsApp: message ${String(raw?.key?.id)} skipped (${message})`);
        continue;
      }
      inbound.set(message.messageId, raw);
      receiving
        .run(async () => {
          await ctx.receive(message);
          ctx.status({ lastInboundAt: Date.now() });
          const selfChat = raw.key.fromMe === true;
          if (account.sendReadReceipts && !selfChat) await socket.readMessages([raw.key]);
        })
        .catch((error: Error) => log.warn(`WhatsApp: message ${message.messageId} not taken: ${error.message}`));
    }
  };

  const attach = (socket: WhatsAppSocketLike): void => {
    socket.ev.on("messages.upsert", (upsert) => handleUpsert(socket, upsert));
    socket.ev.on("chats.phoneNumberShare", (share: { lid?: string; jid?: string }) => {
      if (typeof share?.lid !== "string" || typeof share.jid !== "string") return;
      const lid = jidNormalizedUser(share.lid);
      const pn = jidNormalizedUser(share.jid);
      lids.set(lid, pn);
      current?.auth
        .writeJson(`lid-mapping-${lid.split("@")[0]}_reverse.json`, pn.split("@")[0])
        .catch((error: Error) => log.warn(`WhatsApp: saving a LID mapping failed: ${error.message}`));
    });
  };

  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const needsLogin = (why: string): void => {
    ctx.status({ state: "needs-login", detail: `${why}: ${loginHint(ctx.accountId)}` });
    markReady();
  };

  /** Waits until `openclaw channels login` left a linked device in the folder. */
  const waitForLogin = async (): Promise<void> => {
    while (!signal.aborted) {
      const saved = await readSavedCreds(ctx.credentialsDir);
      if (isLinked(saved?.creds)) return;
      await sleep(rt.clock, rt.linkPollMs, signal).catch(() => undefined);
    }
  };

  const runLoop = async (): Promise<void> => {
    while (!signal.aborted) {
      const auth = await useFileAuthState(ctx.credentialsDir);
      if (auth.source === "backup") log.warn("WhatsApp: creds.json was unreadable; restored it from creds.json.bak");
      if (!isLinked(auth.state.creds)) {
        needsLogin("not linked");
        await waitForLogin();
        continue;
      }
      const connection = new WhatsAppConnection({
        auth,
        makeSocket: rt.makeSocket,
        socketConfig: () => rt.socketConfig(log),
        clock: rt.clock,
        signal,
        reconnect: rt.reconnect,
        watchdogMs: rt.watchdogMs,
        log,
        onQr: () => false,
        onSocket: attach,
        onOpen(socket) {
          const user = socket.user;
          own = {
            ...(user?.id ? { jid: jidNormalizedUser(user.id) } : {}),
            ...(user?.lid ? { lid: jidNormalizedUser(user.lid) } : {}),
          };
          const identity = own.jid ? `+${own.jid.split("@")[0]}` : undefined;
          ctx.status({ state: "connected", detail: "linked device connected", ...(identity ? { identity } : {}) });
          markReady();
        },
        onReconnecting(detail) {
          ctx.status({ state: "reconnecting", detail });
        },
      });
      current = { connection, auth };
      await loadLids();
      const outcome = await connection.run();
      await auth.flush();
      current = undefined;
      if (outcome === "stopped") return;
      if (outcome === "logged-out") {
        await removeAuthState(ctx.credentialsDir);
        needsLogin("logged out from the phone (the device was unlinked)");
        log.warn(`WhatsApp account "${ctx.accountId}" was logged out; ${loginHint(ctx.accountId)}`);
      } else {
        needsLogin("the saved login was refused");
      }
      await waitForLogin();
    }
  };

  const running = runLoop();
  const closed = running.then(
    () => ctx.status({ state: "stopped" }),
    (error: unknown) => {
      ctx.status({ state: "error", detail: (error as Error).message });
      throw error;
    },
  );
  closed.catch(() => undefined);
  // Resolve once open or known to need linking; a slow first connect continues in the background.
  await Promise.race([ready, closed, sleep(rt.clock, rt.firstOpenWaitMs, signal).catch(() => undefined)]);

  return {
    ...outbound,
    closed,
    async downloadMedia(fileId) {
      const message = inbound.get(fileId);
      const socket = current?.connection.openSocket;
      if (message === undefined) throw new Error(`WhatsApp: the media of message ${fileId} is no longer remembered`);
      if (socket === undefined) throw new Error("WhatsApp is not connected; try again once it is");
      return rt.downloadMedia(message, socket);
    },
  };
}
