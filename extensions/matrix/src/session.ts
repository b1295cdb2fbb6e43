/**
 * One connected Matrix account: logs in, opens the crypto store (with `encryption: true`), starts
 * matrix-js-sdk's sync with a `PersistedSyncStore`, hands each new room message to core, accepts
 * invites by `autoJoin`, and sends through `createMatrixOutbound`. The sync position advances only
 * after `ctx.receive` resolved for every message of a batch; the first sync of a fresh account
 * answers no history.
 */
import path from "node:path";
import { AccountConfigError, type AccountContext, type AccountSession, httpFetch } from "@openclaw/plugin-sdk";
import type { MatrixClient, MatrixEvent, Room } from "matrix-js-sdk";
import { ClientEvent, EventStatus, RoomEvent, RoomMemberEvent, SyncState } from "./matrix-sdk.js";
import { accountKeyPath, type MatrixAccount } from "./account.js";
import type { CryptoStore, MatrixE2ee } from "./crypto/index.js";
import { decryptAttachment, type EncryptedFile } from "./crypto/media.js";
import { decideAutoJoin } from "./inbound/invites.js";
import type { MentionTarget } from "./inbound/mentions.js";
import { RoomAliasCache } from "./inbound/room-aliases.js";
import { normalizeRoomMessage, type RawRoomEvent } from "./inbound/normalize.js";
import { type MatrixLogin, loginMatrix } from "./login.js";
import { createMatrixOutbound, type MatrixTransport } from "./outbound/outbound.js";
import { type MatrixStreamingMode, roomStreamingConfig, roomStreamingMode } from "./streaming.js";
import { PersistedSyncStore } from "./sync-store.js";

/** How a session makes its client (tests may wrap it). */
export interface MatrixRuntime {
  createClient(options: ConstructorParameters<typeof MatrixClient>[0]): Promise<MatrixClient>;
  /** How long `connect` waits for the first sync (default 60 000 ms). */
  firstSyncTimeoutMs: number;
}

/** A Matrix session: the outbound methods, `closed`, inbound files, and what status shows. */
export interface MatrixSession extends AccountSession {
  /** The bytes of an inbound file (`InboundMedia.fileId`, an `mxc://` URI), decrypted when it came encrypted. */
  downloadMedia(fileId: string): Promise<Buffer>;
  /** Who the bot is and its device; `verified`, `crossSigning` and `keyBackup` from the crypto status when encryption is on. */
  identity(): { userId: string; deviceId?: string; encryption: boolean; verified?: boolean; crossSigning?: boolean; keyBackup?: boolean };
}

const HANDLED_IDS_KEPT = 2000;
const FILES_KEPT = 200;

/**
 * What `openclaw channels status` shows under the account (`AccountStatus.details`): the device,
 * whether encryption is on and, when it is, whether the device is verified (cross-signed by the
 * account), whether cross-signing is set up and whether room keys are backed up.
 */
export function statusDetails(id: ReturnType<MatrixSession["identity"]>): Record<string, string> {
  const yesNo = (value: boolean | undefined) => (value ? "yes" : "no");
  return {
    device: id.deviceId ?? "unknown",
    encryption: id.encryption ? "on" : "off",
    ...(id.encryption ? { verified: yesNo(id.verified), "cross-signing": yesNo(id.crossSigning), "key backup": yesNo(id.keyBackup) } : {}),
  };
}

/** Connects one account and resolves once its first sync is done. */
export async function connectMatrixAccount(ctx: AccountContext<MatrixAccount>, runtime: MatrixRuntime): Promise<MatrixSession> {
  const { account, log } = ctx;
  ctx.status({ state: "starting" });
  // The crypto store's device wins over the configured one: the token must belong to the keys' device.
  const openCrypto = async (userId: string): Promise<CryptoStore | undefined> => {
    if (!account.encryption) return undefined;
    const crypto = await import("./crypto/index.js");
    return crypto.openCryptoStore({
      dir: path.join(ctx.credentialsDir, "crypto"),
      log,
      userId,
      ...(account.auth.kind === "password" ? { password: account.auth.password } : {}),
    });
  };
  let login: MatrixLogin;
  let cryptoStore: CryptoStore | undefined;
  if (account.auth.kind === "password") {
    cryptoStore = await openCrypto(account.auth.userId);
    login = await loginMatrix(account, ctx.credentialsDir, cryptoStore?.deviceId ?? account.deviceId);
  } else {
    login = await loginMatrix(account, ctx.credentialsDir);
    cryptoStore = await openCrypto(login.userId);
  }
  const deviceId = login.deviceId ?? cryptoStore?.deviceId ?? account.deviceId;
  let e2ee: MatrixE2ee | undefined;

  // Messages of the batch being processed; the sync position waits for them.
  let pending: Promise<void>[] = [];
  const store = new PersistedSyncStore({
    dir: ctx.credentialsDir,
    async settle() {
      const batch = pending;
      pending = [];
      const results = await Promise.allSettled(batch);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
      await cryptoStore?.persist();
    },
  });
  await store.load();

  const client = await runtime.createClient({
    baseUrl: account.homeserver,
    accessToken: login.accessToken,
    userId: login.userId,
    ...(deviceId !== undefined ? { deviceId } : {}),
    store,
    timelineSupport: false,
    // node:http instead of Node's fetch (undici): ~150 ms of CPU and several MB less per start.
    // httpFetch answers with the members of a Response the SDK reads (ok, status, headers, text, json).
    fetchFn: httpFetch as unknown as typeof fetch,
    ...(cryptoStore?.createClientOptions() ?? {}),
  });
  if (cryptoStore) e2ee = await cryptoStore.enable(client);

  // Alias keys of groups and streaming.rooms, resolved now and each time the bot joins a room.
  const aliasCache = new RoomAliasCache(account.roomAliases, async (alias) => (await client.getRoomIdForAlias(alias)).room_id, log);
  await aliasCache.refresh();
  const configKeysOf = (roomId: string): string[] => [roomId, ...aliasCache.aliasesOf(roomId)];

  const bot: MentionTarget = { userId: login.userId, patterns: account.mentionPatterns };
  client
    .getProfileInfo(login.userId)
    .then((profile) => {
      if (profile.displayname) bot.displayName = profile.displayname;
    })
    .catch(() => undefined);

  const handled = new Set<string>();
  const sentByBot = new Set<string>();
  const files = new Map<string, EncryptedFile>();
  const remember = <T>(set: Set<T>, value: T, max: number) => {
    set.add(value);
    if (set.size > max) set.delete(set.values().next().value as T);
  };

  const isDirect = (room: Room | null): boolean => {
    if (!room) return false;
    const direct = (client.getAccountData("m.direct" as never)?.getContent() ?? {}) as Record<string, unknown>;
    for (const rooms of Object.values(direct)) if (Array.isArray(rooms) && rooms.includes(room.roomId)) return true;
    return room.getDMInviter() !== undefined && room.getInvitedAndJoinedMemberCount() <= 2;
  };

  const afterReceive = (event: MatrixEvent): void => {
    const roomId = event.getRoomId()!;
    if (account.readReceipts) client.sendReadReceipt(event).catch((error) => log.debug(`read receipt failed: ${String(error)}`));
    if (account.ackReaction) {
      client
        .sendEvent(
          roomId,
          "m.reaction" as never,
          { "m.relates_to": { rel_type: "m.annotation", event_id: event.getId(), key: account.ackReaction } } as never,
        )
        .catch((error: unknown) => log.debug(`ack reaction failed: ${String(error)}`));
    }
  };

  /** Hands one event to core unless it was handled before, is the bot's own, or is not a message. */
  const handle = async (event: MatrixEvent): Promise<void> => {
    const eventId = event.getId();
    if (!eventId || handled.has(eventId) || event.getSender() === login.userId) return;
    if (event.isEncrypted()) await client.decryptEventIfNeeded(event);
    if (event.isDecryptionFailure()) return; // reported by the crypto watcher, handled when the key arrives
    const sender = event.getSender() ?? "";
    const senderIsBot = account.botUserIds.includes(sender.toLowerCase());
    if (senderIsBot && !account.allowBots) return;
    const room = client.getRoom(event.getRoomId()!);
    const raw: RawRoomEvent = {
      event_id: eventId,
      room_id: event.getRoomId()!,
      sender,
      type: event.getType(),
      origin_server_ts: event.getTs(),
      content: event.getContent(),
    };
    const senderName = room?.getMember(sender)?.name;
    const message = normalizeRoomMessage(raw, {
      channel: "matrix",
      accountId: ctx.accountId,
      bot,
      isDirect: isDirect(room),
      ...(room?.name ? { roomName: room.name } : {}),
      ...(senderName ? { senderName } : {}),
      senderIsBot,
      sentByBot: (id) => sentByBot.has(id) || client.getRoom(raw.room_id)?.findEventById(id)?.getSender() === login.userId,
      threadReplies: account.threadReplies,
    });
    remember(handled, eventId, HANDLED_IDS_KEPT);
    if (!message) return;
    const roomAliases = aliasCache.aliasesOf(raw.room_id);
    if (roomAliases.length > 0) message.chat = { ...message.chat, aliases: roomAliases };
    const file = raw.content.file as EncryptedFile | undefined;
    if (file?.url) {
      files.set(file.url, file);
      if (files.size > FILES_KEPT) files.delete(files.keys().next().value as string);
    }
    await ctx.receive(message);
    ctx.status({ lastInboundAt: Date.now() });
    afterReceive(event);
  };

  client.on(RoomEvent.Timeline, (event, _room, toStartOfTimeline, removed, data) => {
    if (toStartOfTimeline || removed || data?.liveEvent === false) return;
    // Before the first sync completes, events are history (or the saved sync replayed): never answered.
    if (client.getSyncState() === null) {
      if (event.getId()) remember(handled, event.getId()!, HANDLED_IDS_KEPT);
      return;
    }
    pending.push(handle(event));
  });

  const unwatch = e2ee?.watch({
    undecryptable(event) {
      const roomId = event.getRoomId();
      if (!roomId || client.getSyncState() === null) return;
      client
        .sendEvent(
          roomId,
          "m.room.message" as never,
          {
            msgtype: "m.notice",
            body: "I could not decrypt your message (its key has not reached this device yet); it will be answered when the key arrives.",
            "m.relates_to": { "m.in_reply_to": { event_id: event.getId() } },
          } as never,
        )
        .catch((error: unknown) => log.warn(`could not report an undecryptable message: ${String(error)}`));
    },
    decrypted(event) {
      if (client.getSyncState() === null) return;
      handle(event).catch((error) => log.warn(`a late-decrypted message was not recorded: ${String(error)}`));
    },
  });

  client.on(RoomMemberEvent.Membership, (event, member) => {
    if (member.userId !== login.userId) return;
    if (member.membership === "join" && client.getSyncState() !== null) void aliasCache.refresh();
    if (member.membership !== "invite") return;
    const room = client.getRoom(member.roomId);
    const state = room?.currentState;
    const canonical = state?.getStateEvents("m.room.canonical_alias", "")?.getContent() as
      | { alias?: string; alt_aliases?: string[] }
      | undefined;
    const aliases = [...(canonical?.alias ? [canonical.alias] : []), ...(canonical?.alt_aliases ?? [])];
    const inviter = event.getSender();
    const decision = decideAutoJoin({ roomId: member.roomId, aliases, ...(inviter ? { inviter } : {}) }, account);
    if (!decision.join) {
      log.info(`not joining ${member.roomId} (invited by ${inviter ?? "unknown"}): ${decision.reason}`);
      return;
    }
    const direct = event.getContent().is_direct === true;
    client
      .joinRoom(member.roomId)
      .then(async () => {
        log.info(`joined ${member.roomId} (invited by ${inviter ?? "unknown"})`);
        if (direct && inviter) await addDirectRoom(client, inviter, member.roomId);
      })
      .catch((error: unknown) => log.warn(`could not join ${member.roomId}: ${String(error)}`));
  });

  const modeFor = (roomId: string): MatrixStreamingMode => roomStreamingMode(account.streaming, configKeysOf(roomId));
  const transport = clientTransport(client, sentByBot);
  const outbound = createMatrixOutbound(transport, {
    modeFor,
    mediaMaxBytes: account.mediaMaxBytes,
    onSent: () => ctx.status({ lastOutboundAt: Date.now() }),
  });

  const identity = (): ReturnType<MatrixSession["identity"]> => {
    const status = e2ee?.status();
    const device = status?.deviceId ?? client.getDeviceId() ?? deviceId;
    return {
      userId: login.userId,
      ...(device ? { deviceId: device } : {}),
      encryption: account.encryption,
      ...(status ? { verified: status.verified, crossSigning: status.crossSigning, keyBackup: status.backup } : {}),
    };
  };

  // Verification may finish after the first sync (or be done from another device): the details
  // are reported again whenever a sync finds them changed.
  let reported = "";
  const reportConnected = (): void => {
    const details = statusDetails(identity());
    const key = JSON.stringify(details);
    if (key === reported) return;
    reported = key;
    ctx.status({ state: "connected", identity: login.userId, details });
  };

  let fail: (error: Error) => void = () => undefined;
  const closed = new Promise<void>((resolve, reject) => {
    fail = reject;
    const stop = async () => {
      client.stopClient();
      unwatch?.();
      await store.flush().catch(() => undefined);
      await cryptoStore?.persist().catch(() => undefined);
      await e2ee?.close().catch(() => undefined);
      ctx.status({ state: "stopped" });
      resolve();
    };
    if (ctx.signal.aborted) void stop();
    else ctx.signal.addEventListener("abort", () => void stop(), { once: true });
  });

  const firstSync = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Matrix: the first sync with ${account.homeserver} did not finish within ${runtime.firstSyncTimeoutMs} ms`)),
      runtime.firstSyncTimeoutMs,
    );
    client.on(ClientEvent.Sync, (state, _prev, data) => {
      const error = data?.error as { errcode?: string } | undefined;
      if (state === SyncState.Prepared || state === SyncState.Syncing) {
        clearTimeout(timer);
        reportConnected();
        resolve();
      } else if (state === SyncState.Error) {
        if (error?.errcode === "M_UNKNOWN_TOKEN") {
          const key = accountKeyPath(ctx.accountId, account.auth.kind === "token" ? "accessToken" : "password");
          const configError = new AccountConfigError(
            `${key}: ${account.homeserver} no longer accepts the bot's access token; set a new one (or the password) and restart.`,
            key,
          );
          clearTimeout(timer);
          client.stopClient();
          reject(configError);
          fail(configError);
          return;
        }
        reported = "";
        ctx.status({ state: "reconnecting", detail: `sync with ${account.homeserver} failed; retrying` });
      } else if (state === SyncState.Reconnecting) {
        reported = "";
        ctx.status({ state: "reconnecting", detail: `sync with ${account.homeserver} is reconnecting` });
      }
    });
  });

  await client.startClient({ initialSyncLimit: 1, lazyLoadMembers: false, pollTimeout: 30_000 });
  try {
    await firstSync;
  } catch (error) {
    client.stopClient();
    throw error;
  }

  return {
    ...outbound,
    typing: account.typing ? outbound.typing : async () => undefined,
    closed,
    identity,
    streamingFor: (chat) => roomStreamingConfig(account.streaming, configKeysOf(chat.id)),
    async downloadMedia(fileId) {
      const url = client.mxcUrlToHttp(fileId, undefined, undefined, undefined, false, true, true);
      if (!url) throw new Error(`Matrix: ${fileId} is not an mxc:// URI`);
      const response = await httpFetch(url, { headers: { authorization: `Bearer ${login.accessToken}` } });
      if (!response.ok) throw new Error(`Matrix: downloading ${fileId} answered HTTP ${response.status}`);
      const data = Buffer.from(await response.arrayBuffer());
      if (data.byteLength > account.mediaMaxBytes) throw new Error(`Matrix: ${fileId} is larger than mediaMaxMb`);
      const file = files.get(fileId);
      return file ? Buffer.from(decryptAttachment(data, file)) : data;
    },
  };
}

/** Adds a room to the bot's `m.direct` account data under the peer's user id. */
async function addDirectRoom(client: MatrixClient, userId: string, roomId: string): Promise<void> {
  const direct = { ...((client.getAccountData("m.direct" as never)?.getContent() ?? {}) as Record<string, string[]>) };
  const rooms = direct[userId] ?? [];
  if (rooms.includes(roomId)) return;
  direct[userId] = [...rooms, roomId];
  await client.setAccountData("m.direct" as never, direct as never);
}

/**
 * Sends an event under `txnId` once, also when the send is retried: matrix-js-sdk keeps the local
 * echo of a failed send (a 429, a network error) under its transaction id and refuses a second
 * `sendEvent` with it, so a retry resends that echo (same transaction: the homeserver answers a
 * duplicate with the first event's id), and a send already accepted answers its event id.
 */
async function sendOnce(client: MatrixClient, roomId: string, txnId: string, send: () => Promise<{ event_id: string }>): Promise<string> {
  const room = client.getRoom(roomId);
  const earlier = room?.getEventForTxnId(txnId);
  if (room && earlier) {
    if (earlier.status === EventStatus.NOT_SENT) return (await client.resendEvent(earlier, room)).event_id;
    if ((earlier.status === null || earlier.status === EventStatus.SENT) && !earlier.getId()?.startsWith("~")) return earlier.getId()!;
  }
  return (await send()).event_id;
}

/** The outbound's transport on a matrix-js-sdk client (which encrypts events in encrypted rooms). */
function clientTransport(client: MatrixClient, sentByBot: Set<string>): MatrixTransport {
  return {
    async sendEvent(roomId, type, content, txnId) {
      const eventId = await sendOnce(client, roomId, txnId, () => client.sendEvent(roomId, null, type as never, content as never, txnId));
      sentByBot.add(eventId);
      if (sentByBot.size > HANDLED_IDS_KEPT) sentByBot.delete(sentByBot.values().next().value as string);
      return eventId;
    },
    async redact(roomId, eventId, txnId) {
      await sendOnce(client, roomId, txnId, () => client.redactEvent(roomId, eventId, txnId));
    },
    async upload(data, info) {
      const res = await client.uploadContent(Buffer.from(data), { type: info.type, name: info.name, includeFilename: false });
      return res.content_uri;
    },
    async setTyping(roomId, typing, timeoutMs) {
      await client.sendTyping(roomId, typing, timeoutMs);
    },
    isEncrypted(roomId) {
      return client.getRoom(roomId)?.hasEncryptionStateEvent() ?? false;
    },
    async roomFor(chatId) {
      if (chatId.startsWith("#")) return (await client.getRoomIdForAlias(chatId)).room_id;
      if (!chatId.startsWith("@")) return chatId;
      const direct = (client.getAccountData("m.direct" as never)?.getContent() ?? {}) as Record<string, string[]>;
      const joined = (direct[chatId] ?? []).find((id) => client.getRoom(id)?.getMyMembership() === "join");
      if (joined) return joined;
      const created = await client.createRoom({ is_direct: true, invite: [chatId], preset: "trusted_private_chat" as never });
      await addDirectRoom(client, chatId, created.room_id);
      return created.room_id;
    },
  };
}
