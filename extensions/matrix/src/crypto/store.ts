/**
 * The account's persistent Rust crypto store: a fake-indexeddb factory of its own, restored from
 * `<dir>/indexeddb.v8` before the client starts and written back (atomically, 0600) by
 * `persist()`. Next to it: `device.json` (whose device the store belongs to) and `recovery-key`.
 */
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { PluginLogger } from "@openclaw/plugin-sdk";
import type { ICreateClientOpts, MatrixClient, MatrixEvent } from "matrix-js-sdk";
import { CryptoEvent } from "../matrix-sdk.js";
import { bootstrapTrust } from "./bootstrap.js";
import { dumpFactory, type FactorySnapshot, type IdbFactoryLike, restoreFactory } from "./idb-snapshot.js";
import { createIndexedDbFactory, withIndexedDb } from "./indexeddb.js";
import { ensurePrivateDir, readOptionalFile, writePrivateFileAtomic } from "./private-file.js";
import { RECOVERY_KEY_FILE, RecoveryKey } from "./recovery-key.js";
import { quietRustCryptoTracing } from "./tracing.js";
import { type DecryptionHandlers, watchDecryption } from "./watch.js";

export const SNAPSHOT_FILE = "indexeddb.v8";
export const DEVICE_FILE = "device.json";

export interface CryptoSetupOptions {
  /** The account's crypto folder, `<account credentialsDir>/crypto`; created 0700 when missing. */
  dir: string;
  log: PluginLogger;
  /** The account's full user id; a store of another user in `dir` is refused. */
  userId: string;
  /** For user-interactive auth when publishing cross-signing keys (homeservers that require it). */
  password?: string;
  /**
   * The account's recovery key, for a new store on an account whose secret storage already exists
   * (after a lost store, or an account set up in Element). Default: the contents of
   * `<dir>/recovery-key`, which the first start writes.
   */
  recoveryKey?: string;
}

export interface CryptoStatus {
  /** This device's id. */
  deviceId: string;
  /** The device is signed by the account's cross-signing key, which is trusted here. */
  verified: boolean;
  /** Cross-signing keys exist, are trusted, and their private parts are reachable here. */
  crossSigning: boolean;
  /** Room keys are being uploaded to a server-side backup this device can read. */
  backup: boolean;
}

export interface MatrixE2ee {
  /** Last known state; refreshed after setup and on trust and backup changes. */
  status(): CryptoStatus;
  /**
   * Calls `undecryptable` once per event that fails to decrypt (including history from the first
   * sync: filter as for plaintext events), then `decrypted` once when its key arrives. Events sent
   * by this account are not reported. Returns the unsubscribe function.
   */
  watch(handlers: DecryptionHandlers): () => void;
  /** Stops watching and writes the store a last time. Call after `client.stopClient()`. */
  close(): Promise<void>;
}

export interface CryptoStore {
  /**
   * The device id the store belongs to, or `undefined` for a new store. It wins over the
   * configured one: log in with it (password login's `device_id`) so the token matches the keys.
   */
  readonly deviceId: string | undefined;
  /** Spread into `createClient` after the plugin's own options: `cryptoCallbacks`, and `deviceId` when known. */
  createClientOptions(): Partial<ICreateClientOpts>;
  /**
   * Starts Rust crypto on `client` (created with `createClientOptions()`, not yet started), then
   * cross-signs the device, sets up secret storage (recovery key printed once and saved 0600)
   * and the key backup, restoring keys from it on a new store. Throws when the client's device
   * or user does not match the store; setup problems after that are logged, not thrown.
   */
  enable(client: MatrixClient): Promise<MatrixE2ee>;
  /** Writes the store to disk atomically (skipped when unchanged). Call after each handled sync batch. */
  persist(): Promise<void>;
}

interface DeviceRecord {
  userId: string;
  deviceId: string;
}

async function readDeviceRecord(path: string): Promise<DeviceRecord | undefined> {
  const raw = await readOptionalFile(path);
  if (!raw) return undefined;
  const parsed = JSON.parse(raw.toString("utf8")) as Partial<DeviceRecord>;
  if (typeof parsed.userId !== "string" || typeof parsed.deviceId !== "string") {
    throw new Error(`${path} is not a Matrix device record; move the crypto folder away to start a new device`);
  }
  return { userId: parsed.userId, deviceId: parsed.deviceId };
}

/**
 * Call BEFORE `createClient`: restores the persisted IndexedDB contents of this account into a
 * fresh in-memory factory and returns what `createClient` and `enable` need.
 */
export async function openCryptoStore(opts: CryptoSetupOptions): Promise<CryptoStore> {
  await ensurePrivateDir(opts.dir);
  const device = await readDeviceRecord(join(opts.dir, DEVICE_FILE));
  if (device && device.userId !== opts.userId) {
    throw new Error(
      `The Matrix crypto store in ${opts.dir} belongs to ${device.userId}, not ${opts.userId}; ` +
        "give each account its own folder, or move that folder away to start a new device.",
    );
  }
  const factory = createIndexedDbFactory();
  const snapshotPath = join(opts.dir, SNAPSHOT_FILE);
  const raw = await readOptionalFile(snapshotPath);
  if (raw) {
    try {
      await restoreFactory(factory, deserialize(raw) as FactorySnapshot);
    } catch (error) {
      throw new Error(
        `The Matrix crypto store ${snapshotPath} cannot be read (${(error as Error).message}). Restore the file from a backup, ` +
          `or move ${opts.dir} away and start a new device with the recovery key (docs/channels/matrix-encryption.md, "After a lost crypto store").`,
      );
    }
  }
  const recovery = new RecoveryKey(join(opts.dir, RECOVERY_KEY_FILE), opts.recoveryKey);
  await recovery.load();
  return new PersistentCryptoStore(opts, factory, device, !raw, recovery);
}

class PersistentCryptoStore implements CryptoStore {
  private lastWritten: Buffer | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: CryptoSetupOptions,
    private readonly factory: IdbFactoryLike,
    private device: DeviceRecord | undefined,
    private readonly fresh: boolean,
    private readonly recovery: RecoveryKey,
  ) {}

  get deviceId(): string | undefined {
    return this.device?.deviceId;
  }

  createClientOptions(): Partial<ICreateClientOpts> {
    return {
      cryptoCallbacks: this.recovery.callbacks(),
      ...(this.device ? { deviceId: this.device.deviceId } : {}),
    };
  }

  async enable(client: MatrixClient): Promise<MatrixE2ee> {
    const { opts } = this;
    const deviceId = await this.checkClient(client);
    this.recovery.bind(client);
    await withIndexedDb(this.factory, () => client.initRustCrypto());
    if (!(await quietRustCryptoTracing())) opts.log.debug("Matrix: the Rust crypto's debug tracing stays on");
    const crypto = client.getCrypto();
    if (!crypto) throw new Error("matrix-js-sdk did not start its Rust crypto");
    if (!this.device) {
      this.device = { userId: opts.userId, deviceId };
      await writePrivateFileAtomic(join(opts.dir, DEVICE_FILE), `${JSON.stringify(this.device, null, 2)}\n`);
    }
    await bootstrapTrust({
      client,
      crypto,
      log: opts.log,
      userId: opts.userId,
      ...(opts.password ? { password: opts.password } : {}),
      recovery: this.recovery,
      freshStore: this.fresh,
    });
    await this.persist();
    return new E2eeSession(client, this, deviceId, opts.log, opts.userId).start();
  }

  /** The client's device id, after checking it against the store and the access token. */
  private async checkClient(client: MatrixClient): Promise<string> {
    const { opts } = this;
    const userId = client.getUserId();
    const deviceId = client.getDeviceId();
    if (userId !== opts.userId || !deviceId) {
      throw new Error(
        `Matrix encryption needs a client for ${opts.userId} with a device id; got ${userId ?? "no user"} / ${deviceId ?? "no device"}`,
      );
    }
    if (this.device && this.device.deviceId !== deviceId) {
      throw new Error(
        `The Matrix crypto store in ${opts.dir} belongs to device ${this.device.deviceId}, but the client uses ${deviceId}; ` +
          `pass store.createClientOptions() to createClient (its deviceId wins), or move ${opts.dir} away to start a new device.`,
      );
    }
    const whoami = await client.whoami();
    if (whoami.device_id && whoami.device_id !== deviceId) {
      throw new Error(
        `The access token of ${opts.userId} belongs to device ${whoami.device_id}, but the crypto store in ${opts.dir} holds device ${deviceId}. ` +
          `Log in again with deviceId ${deviceId} (channels.matrix.deviceId), or move ${opts.dir} away to start a new device.`,
      );
    }
    return deviceId;
  }

  persist(): Promise<void> {
    const next = this.writing.then(async () => {
      const data = serialize(await dumpFactory(this.factory));
      if (this.lastWritten?.equals(data)) return;
      await writePrivateFileAtomic(join(this.opts.dir, SNAPSHOT_FILE), data);
      this.lastWritten = data;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }
}

class E2eeSession implements MatrixE2ee {
  private current: CryptoStatus;
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly client: MatrixClient,
    private readonly store: CryptoStore,
    deviceId: string,
    private readonly log: PluginLogger,
    private readonly userId: string,
  ) {
    this.current = { deviceId, verified: false, crossSigning: false, backup: false };
  }

  async start(): Promise<this> {
    await this.refresh();
    const refresh = (): void => {
      this.refresh().catch((error) => this.log.debug("Matrix: crypto status refresh failed", { error: String(error) }));
    };
    for (const event of [
      CryptoEvent.KeyBackupStatus,
      CryptoEvent.UserTrustStatusChanged,
      CryptoEvent.KeysChanged,
      CryptoEvent.DevicesUpdated,
    ] as const) {
      this.client.on(event, refresh);
      this.stops.push(() => this.client.off(event, refresh));
    }
    return this;
  }

  private async refresh(): Promise<void> {
    const crypto = this.client.getCrypto();
    if (!crypto) return;
    const { deviceId } = this.current;
    const [device, crossSigning, backupVersion] = await Promise.all([
      crypto.getDeviceVerificationStatus(this.userId, deviceId),
      crypto.isCrossSigningReady(),
      crypto.getActiveSessionBackupVersion(),
    ]);
    this.current = {
      deviceId,
      verified: device?.crossSigningVerified ?? false,
      crossSigning,
      backup: backupVersion !== null,
    };
  }

  status(): CryptoStatus {
    return { ...this.current };
  }

  watch(handlers: DecryptionHandlers): () => void {
    const stop = watchDecryption(this.client, this.userId, handlers, (error: unknown, event: MatrixEvent) =>
      this.log.error("Matrix: a decryption handler failed", { eventId: event.getId(), error: String(error) }),
    );
    this.stops.push(stop);
    return stop;
  }

  async close(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    await this.store.persist();
  }
}
