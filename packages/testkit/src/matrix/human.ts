import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { MatrixClient, Room } from "matrix-js-sdk";
import { createWaiters } from "../telegram/waiters.js";
import { decryptAttachment, type EncryptedFile, encryptAttachment, mimeFromName } from "./attachments.js";
import { type HumanMessage, roomMessages, visibleTextOf } from "./timeline.js";

export type { HumanMessage } from "./timeline.js";

export interface MatrixHumanOptions {
  baseUrl: string;
  userId: string;
  accessToken: string;
  deviceId: string;
  /** Rust crypto on an in-memory fake-indexeddb, as Element has. Default true. */
  encryption?: boolean;
}

export interface CreateRoomOptions {
  name?: string;
  invite?: string[];
  /** An `m.room.encryption` state event from the start. Default false. */
  encrypted?: boolean;
  /** Default `private_chat`. */
  preset?: "private_chat" | "public_chat" | "trusted_private_chat";
  /** Local part of a `#alias:server` to publish. */
  alias?: string;
}

export interface SendOptions {
  html?: string;
  /** User ids for `m.mentions` (each also becomes a matrix.to pill when `html` is not given). */
  mentions?: string[];
  /** Sends into this thread (`m.thread` with the reply fallback). */
  threadRootId?: string;
  /** A reply (`m.in_reply_to`) to this event. */
  replyTo?: string;
  /** Default `m.text`. */
  msgtype?: string;
}

/** An Element-like Matrix user for tests: matrix-js-sdk with Rust crypto, syncing in the background. */
export interface MatrixHuman {
  client: MatrixClient;
  userId: string;
  /** Creates a DM as Element does: `trusted_private_chat`, `is_direct`, `m.direct` account data; encrypted unless `encrypted: false` (or the human has no encryption). */
  createDm(otherUserId: string, opts?: { encrypted?: boolean }): Promise<string>;
  createRoom(opts?: CreateRoomOptions): Promise<string>;
  invite(roomId: string, userId: string): Promise<void>;
  /** Joins and waits until the room is in the human's store. */
  join(roomIdOrAlias: string): Promise<string>;
  leave(roomId: string): Promise<void>;
  /**
   * Resolves once this human's client has seen `userId` with `membership` (default "join") in the
   * room: send to an encrypted room only after it has seen a new member join, as a person would,
   * or the room key may not reach the member's device.
   */
  waitForMember(roomId: string, userId: string, membership?: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the id of the first room (matching `predicate`) this human is invited to. */
  waitForInvite(predicate?: (room: Room) => boolean, timeoutMs?: number): Promise<string>;
  send(roomId: string, text: string, opts?: SendOptions): Promise<string>;
  /** Uploads and sends an `m.image` (encrypted media in an encrypted room). */
  sendImage(roomId: string, bytes: Uint8Array, name: string): Promise<string>;
  /** Uploads and sends a file of any `msgtype` (`m.file` by default). */
  sendFile(roomId: string, bytes: Uint8Array, name: string, opts?: { msgtype?: string; mimetype?: string }): Promise<string>;
  /** The bytes of a media message (decrypted when it carries an encrypted `file`). */
  downloadMedia(content: any): Promise<Buffer>;
  /** Resolves with the first message (now or later, edits applied) matching `predicate`. Default timeout 20 s. */
  waitForMessage(roomId: string, predicate: (message: HumanMessage) => boolean, timeoutMs?: number): Promise<HumanMessage>;
  /** The visible messages' latest bodies joined by "\n": edits applied, redactions removed, in order. */
  visibleText(roomId: string, opts?: { sender?: string }): string;
  timeline(roomId: string): HumanMessage[];
  stop(): Promise<void>;
}

async function loadSdk() {
  try {
    return await import("matrix-js-sdk");
  } catch (err) {
    throw new Error(
      "@openclaw/testkit/matrix needs matrix-js-sdk 36.2.0 and fake-indexeddb installed next to it (optional peer dependencies): " +
        `add them to your devDependencies. (${(err as Error).message})`,
    );
  }
}

/**
 * Silences matrix-js-sdk (in this process) in a test's output (set MATRIX_SDK_DEBUG=1 to see it): its loglevel
 * loggers print at debug level, and it turns the Rust crypto's tracing on at debug level on every
 * `initRustCrypto`.
 */
export async function quietMatrixSdkLogs(): Promise<void> {
  if (process.env.MATRIX_SDK_DEBUG) return;
  // The module instances matrix-js-sdk itself loads.
  const sdkRequire = createRequire(createRequire(import.meta.url).resolve("matrix-js-sdk"));
  const loglevel = sdkRequire("loglevel");
  if (!loglevel.openclawQuiet) {
    const factory = loglevel.methodFactory;
    loglevel.methodFactory = (method: string, level: number, name: string) =>
      process.env.MATRIX_SDK_DEBUG ? factory(method, level, name) : () => undefined;
    loglevel.openclawQuiet = true;
  }
  for (const child of Object.values(loglevel.getLoggers()) as any[]) {
    child.methodFactory = loglevel.methodFactory;
    child.rebuild();
  }
  const dir = path.dirname(sdkRequire.resolve("@matrix-org/matrix-sdk-crypto-wasm"));
  const wasm = await import(pathToFileURL(path.join(dir, "node.mjs")).href);
  new wasm.Tracing(wasm.LoggerLevel.Error).turnOn();
}

let cryptoInit: Promise<unknown> = Promise.resolve();

/** Runs `initRustCrypto` with a fresh in-memory IndexedDB of this client's own, one human at a time. */
async function initCrypto(client: MatrixClient): Promise<void> {
  const { IDBFactory, IDBKeyRange } = await import("fake-indexeddb");
  const run = cryptoInit.then(async () => {
    const g = globalThis as any;
    const previous = { indexedDB: g.indexedDB, IDBKeyRange: g.IDBKeyRange };
    g.indexedDB = new IDBFactory();
    g.IDBKeyRange ??= IDBKeyRange;
    // The Rust crypto logs its setup at debug level through console.debug/info before quietSdk can lower it.
    const { debug, info } = console;
    if (!process.env.MATRIX_SDK_DEBUG) console.debug = console.info = () => undefined;
    try {
      await client.initRustCrypto();
      await quietMatrixSdkLogs();
    } finally {
      Object.assign(console, { debug, info });
      g.indexedDB = previous.indexedDB;
      if (previous.IDBKeyRange === undefined) g.IDBKeyRange = IDBKeyRange;
    }
  });
  cryptoInit = run.catch(() => undefined);
  await run;
}

/**
 * Starts an Element-like human: a matrix-js-sdk client (threads kept in the main timeline, a
 * 500-event sync window so no reply is lost to a gappy sync) with Rust crypto when `encryption`
 * is on (default), synced before it resolves.
 */
export async function createMatrixHuman(opts: MatrixHumanOptions): Promise<MatrixHuman> {
  const sdk = await loadSdk();
  await quietMatrixSdkLogs();
  const encryption = opts.encryption ?? true;
  const client = sdk.createClient({
    baseUrl: opts.baseUrl,
    userId: opts.userId,
    accessToken: opts.accessToken,
    deviceId: opts.deviceId,
  });
  if (encryption) await initCrypto(client);

  const waiters = createWaiters();
  const changed = () => waiters.notify();
  client.on(sdk.RoomEvent.Timeline, changed);
  client.on(sdk.RoomEvent.Redaction, changed);
  client.on(sdk.RoomEvent.MyMembership, changed);
  client.on(sdk.MatrixEventEvent.Decrypted, changed);
  client.on(sdk.ClientEvent.Room, changed);
  client.on(sdk.ClientEvent.AccountData, changed);
  /** Resolves with `check()`'s first defined answer, re-checked on every timeline change. */
  const waitFor = <T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
    waiters.waitFor(check, timeoutMs, () => `${opts.userId} waited for ${what()}`);

  const filter = new sdk.Filter(opts.userId);
  filter.setDefinition({ room: { timeline: { limit: 500 }, state: { lazy_load_members: false } } });
  const prepared = new Promise<void>((resolve, reject) => {
    client.on(sdk.ClientEvent.Sync, (state: string, _prev: unknown, data: any) => {
      if (state === "PREPARED") resolve();
      if (state === "ERROR" && data?.error?.errcode === "M_UNKNOWN_TOKEN") reject(data.error);
    });
  });
  await client.startClient({ filter, threadSupport: false, lazyLoadMembers: false });
  await prepared;

  const joinedRoom = (roomId: string, encrypted: boolean) =>
    waitFor(
      () => {
        const room = client.getRoom(roomId);
        if (room?.getMyMembership() !== "join") return undefined;
        if (encrypted && !room.hasEncryptionStateEvent()) return undefined;
        return roomId;
      },
      20_000,
      () => `room ${roomId} to be joined${encrypted ? " and encrypted" : ""}`,
    );

  async function createRoom(options: CreateRoomOptions & { isDirect?: boolean } = {}): Promise<string> {
    const encrypted = options.encrypted ?? false;
    const { room_id } = await client.createRoom({
      ...(options.name ? { name: options.name } : {}),
      ...(options.alias ? { room_alias_name: options.alias } : {}),
      invite: options.invite ?? [],
      preset: (options.preset ?? "private_chat") as never,
      ...(options.isDirect ? { is_direct: true } : {}),
      initial_state: encrypted ? [{ type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } }] : [],
    });
    return joinedRoom(room_id, encrypted);
  }

  async function upload(bytes: Uint8Array, name: string, mimetype: string, encrypted: boolean) {
    if (!encrypted) {
      const { content_uri } = await client.uploadContent(Buffer.from(bytes), { name, type: mimetype });
      return { url: content_uri };
    }
    const { data, file } = encryptAttachment(bytes);
    const { content_uri } = await client.uploadContent(data, { name, type: "application/octet-stream", includeFilename: false });
    return { file: { ...file, url: content_uri, mimetype } satisfies EncryptedFile };
  }

  async function sendFile(roomId: string, bytes: Uint8Array, name: string, o: { msgtype?: string; mimetype?: string } = {}) {
    const mimetype = o.mimetype ?? mimeFromName(name);
    const encrypted = client.getRoom(roomId)?.hasEncryptionStateEvent() ?? false;
    const media = await upload(bytes, name, mimetype, encrypted);
    const content = { msgtype: o.msgtype ?? "m.file", body: name, filename: name, info: { mimetype, size: bytes.byteLength }, ...media };
    const { event_id } = await client.sendMessage(roomId, content as never);
    return event_id;
  }

  const human: MatrixHuman = {
    client,
    userId: opts.userId,
    async createDm(otherUserId, o = {}) {
      const roomId = await createRoom({
        invite: [otherUserId],
        preset: "trusted_private_chat",
        isDirect: true,
        encrypted: o.encrypted ?? encryption,
      });
      const direct = (client.getAccountData("m.direct" as never)?.getContent() ?? {}) as Record<string, string[]>;
      await client.setAccountData("m.direct" as never, { ...direct, [otherUserId]: [...(direct[otherUserId] ?? []), roomId] } as never);
      const listed = () => {
        const now = (client.getAccountData("m.direct" as never)?.getContent() ?? {}) as Record<string, string[]>;
        return now[otherUserId]?.includes(roomId) ? roomId : undefined;
      };
      return waitFor(listed, 20_000, () => `m.direct to list ${roomId}`);
    },
    createRoom: (o) => createRoom(o),
    async invite(roomId, userId) {
      await client.invite(roomId, userId);
    },
    async join(roomIdOrAlias) {
      const room = await client.joinRoom(roomIdOrAlias);
      return joinedRoom(room.roomId, false);
    },
    async leave(roomId) {
      await client.leave(roomId);
    },
    async waitForMember(roomId, userId, membership = "join", timeoutMs = 20_000) {
      await waitFor(
        () => client.getRoom(roomId)?.getMember(userId)?.membership === membership || undefined,
        timeoutMs,
        () => `${userId} to be "${membership}" in ${roomId}`,
      );
    },
    waitForInvite(predicate = () => true, timeoutMs = 20_000) {
      return waitFor(
        () => client.getRooms().find((room) => room.getMyMembership() === "invite" && predicate(room))?.roomId,
        timeoutMs,
        () => "an invite",
      );
    },
    async send(roomId, text, o = {}) {
      const content: Record<string, unknown> = { msgtype: o.msgtype ?? "m.text", body: text };
      const pills = (o.mentions ?? []).map((id) => `<a href="https://matrix.to/#/${id}">${id}</a>`);
      const html = o.html ?? (pills.length > 0 ? `${pills.join(" ")} ${text}` : undefined);
      if (html !== undefined) Object.assign(content, { format: "org.matrix.custom.html", formatted_body: html });
      if (o.mentions) content["m.mentions"] = { user_ids: o.mentions };
      if (o.threadRootId) {
        const inThread = roomMessages(client.getRoom(roomId)).filter(
          (m) => m.threadRootId === o.threadRootId || m.eventId === o.threadRootId,
        );
        const latest = o.replyTo ?? inThread.at(-1)?.eventId ?? o.threadRootId;
        content["m.relates_to"] = {
          rel_type: "m.thread",
          event_id: o.threadRootId,
          is_falling_back: !o.replyTo,
          "m.in_reply_to": { event_id: latest },
        };
      } else if (o.replyTo) {
        content["m.relates_to"] = { "m.in_reply_to": { event_id: o.replyTo } };
      }
      const { event_id } = await client.sendEvent(roomId, "m.room.message" as never, content as never, randomUUID());
      return event_id;
    },
    sendImage: (roomId, bytes, name) => sendFile(roomId, bytes, name, { msgtype: "m.image" }),
    sendFile,
    async downloadMedia(content) {
      const mxc: string | undefined = content?.file?.url ?? content?.url;
      const match = mxc?.match(/^mxc:\/\/([^/]+)\/(.+)$/);
      if (!match) throw new Error(`not a media message: ${JSON.stringify(content)}`);
      const res = await fetch(`${opts.baseUrl}/_matrix/client/v1/media/download/${match[1]}/${match[2]}`, {
        headers: { authorization: `Bearer ${opts.accessToken}` },
      });
      if (!res.ok) throw new Error(`download ${mxc} -> ${res.status} ${await res.text()}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      return content.file ? decryptAttachment(bytes, content.file) : bytes;
    },
    waitForMessage(roomId, predicate, timeoutMs = 20_000) {
      return waitFor(
        () => roomMessages(client.getRoom(roomId)).find(predicate),
        timeoutMs,
        () => `a matching message in ${roomId}; it shows:\n${human.visibleText(roomId) || "(nothing)"}`,
      );
    },
    visibleText(roomId, o = {}) {
      return visibleTextOf(roomMessages(client.getRoom(roomId)), o.sender);
    },
    timeline: (roomId) => roomMessages(client.getRoom(roomId)),
    async stop() {
      waiters.rejectAll(new Error(`${opts.userId} stopped`));
      client.stopClient();
      client.removeAllListeners();
    },
  };
  return human;
}
