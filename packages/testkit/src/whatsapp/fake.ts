// A fake WhatsApp at Baileys' socket surface. `makeSocket` stands in for Baileys' `makeWASocket`:
// each socket it makes plays the server side of one connection (QR or login, open, close with a
// DisconnectReason status, messages up, sends recorded), while `phone` plays the user's phone and
// the people who write. Baileys' real JID helpers build and read every address.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { jidDecode, jidEncode, jidNormalizedUser } from "baileys";
import { fakeBoom } from "./boom.js";
import type {
  FakeListener,
  FakeMessageKey,
  FakePhone,
  FakeSentMessage,
  FakeSocket,
  FakeSocketConfig,
  FakeUserMessage,
  FakeWAMessage,
  FakeWhatsApp,
  FakeWhatsAppOptions,
} from "./types.js";

/** Baileys' `DisconnectReason` values the fake uses. */
const LOGGED_OUT = 401;
const RESTART_REQUIRED = 515;
const CONNECTION_CLOSED = 428;

export { fakeBoom };

const digitsOf = (number: string): string => number.replace(/\D/g, "");

/** `+15551234567` or a JID -> the user JID (`15551234567@s.whatsapp.net`); LID and group JIDs stay. */
export function userJid(id: string): string {
  if (id.includes("@")) return jidNormalizedUser(id);
  return jidEncode(digitsOf(id), "s.whatsapp.net");
}

/** A creds object's identity for the fake server: its noise key (what a real server knows the device by). */
function fingerprint(creds: Record<string, unknown>): string | undefined {
  const noise = creds.noiseKey as { public?: Uint8Array } | undefined;
  if (noise?.public === undefined) return undefined;
  return Buffer.from(noise.public).toString("base64");
}

interface Device {
  fingerprint: string;
  me: { id: string; name: string };
}

class SocketImpl implements FakeSocket {
  readonly #events = new EventEmitter();
  readonly #ws = new EventEmitter();
  readonly ev = {
    on: (event: string, listener: FakeListener) => void this.#events.on(event, listener),
    off: (event: string, listener: FakeListener) => void this.#events.off(event, listener),
  };
  readonly ws = {
    on: (event: "frame", listener: FakeListener) => void this.#ws.on(event, listener),
    off: (event: "frame", listener: FakeListener) => void this.#ws.off(event, listener),
  };
  user: FakeSocket["user"] = undefined;
  state: "connecting" | "waiting" | "open" | "closed" = "connecting";
  silent = false;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(
    readonly world: World,
    readonly creds: Record<string, unknown>,
  ) {
    this.#events.setMaxListeners(0);
  }

  emit(event: string, data: unknown): void {
    if (this.state === "closed" || this.silent) return;
    this.#ws.emit("frame", { tag: event });
    this.#events.emit(event, data);
    this.world.changed();
  }

  frame(): void {
    if (this.state !== "closed" && !this.silent) this.#ws.emit("frame", { tag: "iq" });
  }

  /** Opens with the saved login, or shows a QR code. */
  start(): void {
    setImmediate(() => {
      if (this.state === "closed") return;
      this.emit("connection.update", { connection: "connecting", receivedPendingNotifications: false });
      const me = this.creds.me as { id?: string } | undefined;
      const fp = fingerprint(this.creds);
      const linked = me?.id !== undefined && this.creds.account != null;
      if (linked) {
        const device = fp !== undefined ? this.world.devices.get(fp) : undefined;
        if (device === undefined || device.me.id !== me!.id) {
          this.end(fakeBoom("Connection Failure", LOGGED_OUT));
          return;
        }
        this.open(device);
        return;
      }
      this.state = "waiting";
      this.showQr();
    });
  }

  showQr(): void {
    const qr = `2@${randomBytes(24).toString("base64")},${randomBytes(16).toString("base64")},${this.world.qrs.length}`;
    this.world.qrs.push(qr);
    this.emit("connection.update", { qr });
  }

  open(device: Device): void {
    this.state = "open";
    this.user = { id: device.me.id, name: device.me.name };
    this.emit("connection.update", { connection: "open", receivedPendingNotifications: true });
    if (this.world.keepAliveIntervalMs !== undefined) {
      this.#keepAlive = setInterval(() => this.frame(), this.world.keepAliveIntervalMs);
      this.#keepAlive.unref();
    }
  }

  /** The phone accepted this socket's QR or pairing code: save the device, then restart as WhatsApp does. */
  link(): void {
    const fp = fingerprint(this.creds);
    if (fp === undefined) throw new Error("the socket's creds have no noiseKey; pass Baileys' initAuthCreds() as auth.creds");
    const deviceNo = this.world.devices.size + 1;
    const me = { id: `${digitsOf(this.world.number)}:${deviceNo}@s.whatsapp.net`, name: this.world.name };
    this.world.devices.set(fp, { fingerprint: fp, me });
    const update = {
      me,
      account: { details: randomBytes(8).toString("base64"), accountSignatureKey: randomBytes(8).toString("base64") },
      platform: "android",
      registered: true,
      pairingCode: undefined,
    };
    Object.assign(this.creds, update);
    this.emit("creds.update", update);
    this.end(fakeBoom("Stream Errored (restart required)", RESTART_REQUIRED));
  }

  async sendMessage(jid: string, content: Record<string, unknown>, options?: { quoted?: FakeWAMessage }): Promise<FakeWAMessage> {
    if (this.state !== "open") throw fakeBoom("Connection Closed", CONNECTION_CLOSED);
    if (this.world.failSends > 0) {
      this.world.failSends--;
      throw fakeBoom("rate-overlimit", this.world.failStatus);
    }
    const id = `3EB0${randomBytes(8).toString("hex").toUpperCase()}`;
    this.world.record(id, jidNormalizedUser(jid), content, options?.quoted?.key?.id ?? undefined);
    return { key: { remoteJid: jid, fromMe: true, id }, message: {}, messageTimestamp: Math.floor(Date.now() / 1000) };
  }

  async sendPresenceUpdate(type: string, jid?: string): Promise<void> {
    if (this.state !== "open") throw fakeBoom("Connection Closed", CONNECTION_CLOSED);
    const key = jid === undefined ? "" : jidNormalizedUser(jid);
    const list = this.world.presences.get(key) ?? [];
    list.push(type);
    this.world.presences.set(key, list);
    this.world.changed();
  }

  async readMessages(keys: FakeMessageKey[]): Promise<void> {
    if (this.state !== "open") throw fakeBoom("Connection Closed", CONNECTION_CLOSED);
    this.world.readReceipts.push(...keys);
    this.world.changed();
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (this.state !== "waiting") throw fakeBoom("Connection Closed", CONNECTION_CLOSED);
    const code = randomBytes(4).toString("hex").toUpperCase();
    const update = { pairingCode: code, me: { id: jidEncode(digitsOf(phoneNumber), "s.whatsapp.net"), name: "~" } };
    Object.assign(this.creds, update);
    this.world.pairingCodes.push(code);
    this.emit("creds.update", update);
    return code;
  }

  async logout(): Promise<void> {
    const fp = fingerprint(this.creds);
    if (fp !== undefined) this.world.devices.delete(fp);
    this.end(fakeBoom("Intentional Logout", LOGGED_OUT));
  }

  end(error: Error | undefined): void {
    if (this.state === "closed") return;
    clearInterval(this.#keepAlive);
    const wasSilent = this.silent;
    this.silent = false;
    this.emit("connection.update", { connection: "close", lastDisconnect: { error, date: new Date() } });
    this.silent = wasSilent;
    this.state = "closed";
    this.user = undefined;
    this.world.changed();
  }
}

class World {
  readonly devices = new Map<string, Device>();
  readonly sockets: SocketImpl[] = [];
  readonly qrs: string[] = [];
  readonly pairingCodes: string[] = [];
  readonly sentList: FakeSentMessage[] = [];
  readonly presences = new Map<string, string[]>();
  readonly readReceipts: FakeMessageKey[] = [];
  readonly media = new Map<string, Buffer>();
  readonly texts = new Map<string, { text: string; fromBot: boolean; jid: string }>();
  readonly waiters = new Set<() => void>();
  failSends = 0;
  failStatus = 429;
  nextId = 1;

  constructor(
    readonly number: string,
    readonly name: string,
    readonly keepAliveIntervalMs: number | undefined,
  ) {}

  get current(): SocketImpl | undefined {
    return this.sockets.at(-1);
  }

  changed(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  record(id: string, jid: string, content: Record<string, unknown>, quotedId: string | undefined): void {
    const kinds = ["image", "video", "audio", "document", "sticker"] as const;
    const kind = typeof content.text === "string" ? "text" : (kinds.find((k) => content[k] !== undefined) ?? "other");
    const text = typeof content.text === "string" ? content.text : typeof content.caption === "string" ? content.caption : undefined;
    const file = kind !== "text" && kind !== "other" ? content[kind] : undefined;
    const bytes = Buffer.isBuffer(file) ? file.length : undefined;
    const message: FakeSentMessage = {
      id,
      jid,
      kind,
      content,
      at: Date.now(),
      ...(text !== undefined ? { text } : {}),
      ...(content.ptt === true ? { ptt: true } : {}),
      ...(typeof content.fileName === "string" ? { fileName: content.fileName } : {}),
      ...(typeof content.mimetype === "string" ? { mimetype: content.mimetype } : {}),
      ...(bytes !== undefined ? { bytes } : {}),
      ...(quotedId !== undefined ? { quotedId } : {}),
      ...(Array.isArray(content.mentions) ? { mentions: content.mentions as string[] } : {}),
    };
    this.sentList.push(message);
    if (text !== undefined) this.texts.set(id, { text, fromBot: true, jid });
    this.changed();
  }
}

const MEDIA_FIELD = {
  image: "imageMessage",
  video: "videoMessage",
  audio: "audioMessage",
  voice: "audioMessage",
  document: "documentMessage",
  sticker: "stickerMessage",
} as const;

const DEFAULT_MIME = {
  image: "image/jpeg",
  video: "video/mp4",
  audio: "audio/mpeg",
  voice: "audio/ogg; codecs=opus",
  document: "application/octet-stream",
  sticker: "image/webp",
} as const;

/**
 * A fake WhatsApp for a channel's tests: hand `makeSocket` to the plugin instead of Baileys'
 * `makeWASocket`, and drive the world through `phone`. Nothing leaves the process.
 */
export function createFakeWhatsApp(options: FakeWhatsAppOptions = {}): FakeWhatsApp {
  const world = new World(options.linkedNumber ?? "+15550001111", options.name ?? "OpenClaw Test", options.keepAliveIntervalMs);
  const ownJid = (): string => userJid(world.number);

  const openSocket = (): SocketImpl => {
    const socket = world.current;
    if (socket === undefined || socket.state !== "open")
      throw new Error("no WhatsApp socket is open (connect the plugin, and link it, first)");
    return socket;
  };
  const waitingSocket = (): SocketImpl => {
    const socket = world.current;
    if (socket === undefined || socket.state !== "waiting") throw new Error("no socket is waiting to be linked (no QR is shown)");
    return socket;
  };

  const buildMessage = (m: FakeUserMessage): FakeWAMessage => {
    const id = `FAKE${String(world.nextId++).padStart(8, "0")}`;
    const sender = m.fromMe ? ownJid() : userJid(m.from);
    const remoteJid = m.to ?? m.group ?? (m.fromMe ? ownJid() : sender);
    const key: FakeMessageKey = { remoteJid, fromMe: m.fromMe === true, id };
    if (m.group !== undefined) key.participant = sender;
    const contextInfo: Record<string, unknown> = {};
    if (m.quoted !== undefined) {
      const known = world.texts.get(m.quoted.id);
      const fromBot = m.quoted.fromBot ?? known?.fromBot ?? false;
      contextInfo.stanzaId = m.quoted.id;
      contextInfo.participant = fromBot ? ownJid() : sender;
      contextInfo.quotedMessage = { conversation: m.quoted.text ?? known?.text ?? "" };
    }
    if (m.mentions !== undefined) contextInfo.mentionedJid = m.mentions.map(userJid);
    const hasContext = Object.keys(contextInfo).length > 0;
    let message: Record<string, unknown>;
    if (m.media !== undefined) {
      const media = m.media;
      world.media.set(id, media.data);
      message = {
        [MEDIA_FIELD[media.kind]]: {
          mimetype: media.mimetype ?? DEFAULT_MIME[media.kind],
          fileLength: media.data.length,
          url: `https://mmg.whatsapp.net/fake/${id}`,
          mediaKey: randomBytes(32).toString("base64"),
          ...(media.caption !== undefined ? { caption: media.caption } : {}),
          ...(media.fileName !== undefined ? { fileName: media.fileName } : {}),
          ...(media.kind === "voice" ? { ptt: true } : {}),
          ...(hasContext ? { contextInfo } : {}),
        },
      };
    } else if (hasContext) {
      message = { extendedTextMessage: { text: m.text ?? "", contextInfo } };
    } else {
      message = { conversation: m.text ?? "" };
    }
    if (m.text !== undefined) world.texts.set(id, { text: m.text, fromBot: false, jid: remoteJid });
    return {
      key,
      message,
      messageTimestamp: Math.floor(Date.now() / 1000),
      ...(m.pushName !== undefined ? { pushName: m.pushName } : {}),
    };
  };

  const phone: FakePhone = {
    get number() {
      return world.number;
    },
    get currentQr() {
      const socket = world.current;
      return socket?.state === "waiting" ? world.qrs.at(-1) : undefined;
    },
    get qrs() {
      return world.qrs;
    },
    get pairingCodes() {
      return world.pairingCodes;
    },
    scanQr() {
      waitingSocket().link();
    },
    enterPairingCode(code) {
      const socket = waitingSocket();
      if (socket.creds.pairingCode !== code) throw new Error(`the pairing code ${code} does not match the one shown`);
      const me = socket.creds.me as { id: string };
      if (jidDecode(me.id)?.user !== digitsOf(world.number))
        throw new Error(`the pairing code was requested for ${me.id}, not this phone (${world.number})`);
      socket.link();
    },
    rotateQr() {
      waitingSocket().showQr();
    },
    userSends(message) {
      const socket = openSocket();
      const built = buildMessage(message);
      socket.emit("messages.upsert", { type: "notify", messages: [built] });
      return built.key.id!;
    },
    rawUpsert(payload) {
      openSocket().emit("messages.upsert", payload);
    },
    shareNumber(lid, e164) {
      openSocket().emit("chats.phoneNumberShare", { lid, jid: userJid(e164) });
    },
    disconnect(statusCode) {
      openSocket().end(fakeBoom(`Connection closed (${statusCode})`, statusCode));
    },
    loggedOutFromPhone() {
      world.devices.clear();
      const socket = world.current;
      if (socket !== undefined && socket.state !== "closed") socket.end(fakeBoom("Connection Failure", LOGGED_OUT));
    },
    goSilent() {
      openSocket().silent = true;
    },
    frame() {
      openSocket().frame();
    },
    failNextSends(count, statusCode = 429) {
      world.failSends = count;
      world.failStatus = statusCode;
    },
    sent(jid) {
      const target = userJid(jid);
      return world.sentList.filter((m) => m.jid === target);
    },
    get allSent() {
      return world.sentList;
    },
    presence(jid) {
      return world.presences.get(userJid(jid)) ?? [];
    },
    get readReceipts() {
      return world.readReceipts;
    },
    get linked() {
      return world.devices.size > 0;
    },
    get connected() {
      return world.current?.state === "open";
    },
    get socketsMade() {
      return world.sockets.length;
    },
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!predicate()) return;
          world.waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          world.waiters.delete(check);
          reject(new Error(`fake WhatsApp: condition not met within ${timeoutMs} ms`));
        }, timeoutMs);
        world.waiters.add(check);
        check();
      });
    },
  };

  return {
    makeSocket(config: FakeSocketConfig) {
      const socket = new SocketImpl(world, config.auth.creds);
      world.sockets.push(socket);
      socket.start();
      world.changed();
      return socket;
    },
    phone,
    async downloadMedia(message) {
      const data = message.key?.id ? world.media.get(message.key.id) : undefined;
      if (data === undefined) throw fakeBoom("media not found (the fake never delivered it)", 404);
      return data;
    },
    close() {
      for (const socket of world.sockets) socket.end(fakeBoom("Connection Closed", CONNECTION_CLOSED));
    },
  };
}
