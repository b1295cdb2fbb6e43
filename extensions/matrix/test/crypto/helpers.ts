/**
 * A bot client built the way the plugin builds one (openCryptoStore → createClient → enable →
 * startClient, persist after each sync), plus waits on what it decrypts.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginLogger } from "@openclaw/plugin-sdk";
import {
  ClientEvent,
  createClient,
  type MatrixClient,
  type MatrixEvent,
  MatrixEventEvent,
  RoomEvent,
  RoomMemberEvent,
  SyncState,
} from "matrix-js-sdk";
import { type CryptoStore, type MatrixE2ee, openCryptoStore } from "../../src/crypto/index.js";

export interface Credentials {
  userId: string;
  accessToken: string;
  deviceId: string;
  password: string;
}

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
}

export function recordingLogger(lines: LogLine[]): PluginLogger {
  const at =
    (level: LogLine["level"]) =>
    (message: string): void => {
      lines.push({ level, message });
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export function tempDir(prefix: string): string {
  return join(mkdtempSync(join(tmpdir(), prefix)), "crypto");
}

export interface Bot {
  client: MatrixClient;
  store: CryptoStore;
  e2ee: MatrixE2ee;
  log: LogLine[];
  /** Resolves with the first event in `roomId` (decrypted, not sent by the bot) matching `predicate`. */
  waitForMessage(roomId: string, predicate: (body: string, event: MatrixEvent) => boolean, timeoutMs?: number): Promise<MatrixEvent>;
  stop(): Promise<void>;
}

export interface BotOptions {
  baseUrl: string;
  dir: string;
  credentials: Credentials;
  recoveryKey?: string;
  /** Start syncing (default true). */
  sync?: boolean;
}

/** What the test does after `enable`, in place of the plugin: join invites, persist after syncs. */
export async function startBot(options: BotOptions): Promise<Bot> {
  const { credentials } = options;
  const log: LogLine[] = [];
  const store = await openCryptoStore({
    dir: options.dir,
    log: recordingLogger(log),
    userId: credentials.userId,
    password: credentials.password,
    ...(options.recoveryKey ? { recoveryKey: options.recoveryKey } : {}),
  });
  const client = createClient({
    baseUrl: options.baseUrl,
    userId: credentials.userId,
    accessToken: credentials.accessToken,
    deviceId: credentials.deviceId,
    ...store.createClientOptions(),
  });
  const e2ee = await store.enable(client);
  client.on(RoomMemberEvent.Membership, (_event, member) => {
    if (member.userId === credentials.userId && member.membership === "invite") {
      client.joinRoom(member.roomId).catch(() => undefined);
    }
  });
  client.on(ClientEvent.Sync, () => {
    store.persist().catch(() => undefined);
  });
  if (options.sync !== false) {
    const prepared = new Promise<void>((resolve) => {
      const onSync = (state: SyncState): void => {
        if (state === SyncState.Prepared || state === SyncState.Syncing) {
          client.off(ClientEvent.Sync, onSync);
          resolve();
        }
      };
      client.on(ClientEvent.Sync, onSync);
    });
    await client.startClient({ initialSyncLimit: 20 });
    await prepared;
  }

  const waitForMessage: Bot["waitForMessage"] = (roomId, predicate, timeoutMs = 30_000) =>
    new Promise((resolve, reject) => {
      const check = (event: MatrixEvent): boolean => {
        if (event.getRoomId() !== roomId || event.getSender() === credentials.userId) return false;
        if (event.isBeingDecrypted() || event.isDecryptionFailure()) return false;
        const body = event.getContent().body;
        if (typeof body !== "string" || !predicate(body, event)) return false;
        cleanup();
        resolve(event);
        return true;
      };
      const onTimeline = (event: MatrixEvent): void => void check(event);
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`bot saw no matching message in ${roomId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        client.off(RoomEvent.Timeline, onTimeline);
        client.off(MatrixEventEvent.Decrypted, onTimeline);
      };
      client.on(RoomEvent.Timeline, onTimeline);
      client.on(MatrixEventEvent.Decrypted, onTimeline);
      for (const event of client.getRoom(roomId)?.getLiveTimeline().getEvents() ?? []) if (check(event)) return;
    });

  return {
    client,
    store,
    e2ee,
    log,
    waitForMessage,
    async stop() {
      client.stopClient();
      await e2ee.close();
    },
  };
}

/** Polls `fn` until it returns a value other than `undefined`/`false` (for server-side state without events). */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
