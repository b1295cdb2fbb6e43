/**
 * First-start (and every-start) setup of the device's trust: cross-signing, secret storage with a
 * recovery key, and the server-side room-key backup. Each step is idempotent, so it runs on every
 * start and only does work that is missing. It never replaces cross-signing keys or secret storage
 * that the account already has and this device cannot open: it warns and says how to fix it.
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";
import type { AuthDict, MatrixClient, UIAuthCallback } from "matrix-js-sdk";
import { ClientEvent, MatrixEvent } from "../matrix-sdk.js";
import type { CryptoApi } from "matrix-js-sdk/lib/crypto-api/index.js";
import type { RecoveryKey } from "./recovery-key.js";

export interface BootstrapContext {
  client: MatrixClient;
  crypto: CryptoApi;
  log: PluginLogger;
  userId: string;
  password?: string;
  recovery: RecoveryKey;
  /** True when the store was created in this process: keys are restored from the backup. */
  freshStore: boolean;
}

/**
 * Uploads the device keys now instead of after the first sync, so the device can be cross-signed
 * before `startClient`. matrix-js-sdk 36.2.0 keeps its request loop private; when it is not
 * where expected, the keys go up after the first sync and signing waits for the next start.
 */
export async function uploadPendingKeys(crypto: CryptoApi): Promise<void> {
  const manager = (crypto as unknown as { outgoingRequestsManager?: { doProcessOutgoingRequests?(): Promise<void> } })
    .outgoingRequestsManager;
  if (typeof manager?.doProcessOutgoingRequests === "function") await manager.doProcessOutgoingRequests();
}

function passwordAuth(ctx: BootstrapContext): UIAuthCallback<void> {
  return async (makeRequest) => {
    try {
      await makeRequest(null);
      return;
    } catch (error) {
      const session = (error as { data?: { session?: unknown } }).data?.session;
      if (typeof session !== "string" || !ctx.password) {
        throw new Error(
          `The homeserver wants ${ctx.userId}'s password to publish its cross-signing keys; set the account's password ` +
            "(channels.matrix.password, or MATRIX_PASSWORD for the default account) and restart.",
          { cause: error },
        );
      }
      const auth: AuthDict = {
        type: "m.login.password",
        identifier: { type: "m.id.user", user: ctx.userId },
        password: ctx.password,
        session,
      };
      await makeRequest(auth);
    }
  };
}

async function hasLocalCrossSigningKeys(crypto: CryptoApi): Promise<boolean> {
  const { privateKeysCachedLocally: local } = await crypto.getCrossSigningStatus();
  return local.masterKey && local.selfSigningKey && local.userSigningKey;
}

async function setUpCrossSigning(ctx: BootstrapContext, secretStorageOpen: boolean): Promise<void> {
  const { crypto } = ctx;
  if (await crypto.isCrossSigningReady()) return;
  const accountHasIdentity = await crypto.userHasCrossSigningKeys(ctx.userId, true);
  if (!accountHasIdentity || secretStorageOpen || (await hasLocalCrossSigningKeys(crypto))) {
    await crypto.bootstrapCrossSigning({ authUploadDeviceSigningKeys: passwordAuth(ctx) });
    if (!accountHasIdentity) ctx.log.info("Matrix: created cross-signing keys and signed this device", { userId: ctx.userId });
    return;
  }
  ctx.log.warn(
    `Matrix: ${ctx.userId} already has cross-signing keys that this device cannot reach, so the device stays unverified. ` +
      `Write the account's recovery key to ${ctx.recovery.path} (mode 0600) and restart.`,
  );
}

async function createSecretStorage(ctx: BootstrapContext): Promise<void> {
  const { crypto } = ctx;
  const backup = await crypto.getKeyBackupInfo();
  const backupKeyHere = backup?.version !== undefined && (await crypto.getSessionBackupPrivateKey()) !== null;
  await crypto.bootstrapSecretStorage({
    createSecretStorageKey: async () => {
      const key = await crypto.createRecoveryKeyFromPassphrase();
      if (!key.encodedPrivateKey) throw new Error("matrix-js-sdk returned a recovery key without its encoded form");
      await ctx.recovery.save(key.encodedPrivateKey, key.privateKey);
      ctx.log.warn(
        `Matrix recovery key for ${ctx.userId} (shown once; also stored in ${ctx.recovery.path}, mode 0600): ` +
          `${key.encodedPrivateKey}  Keep it somewhere safe: it restores the cross-signing keys and the message-key backup if the crypto store is lost.`,
      );
      return key;
    },
    setupNewKeyBackup: !backupKeyHere,
  });
}

/** Makes sure a key backup exists, its key is known here, and uploads run. */
async function setUpBackup(ctx: BootstrapContext): Promise<void> {
  const { crypto } = ctx;
  const info = await crypto.getKeyBackupInfo();
  if (!info?.version) {
    await crypto.resetKeyBackup();
  } else if ((await crypto.getSessionBackupPrivateKey()) === null) {
    if (await ctx.client.secretStorage.isStored("m.megolm_backup.v1")) {
      await crypto.loadSessionBackupPrivateKeyFromSecretStorage();
    } else {
      ctx.log.warn(`Matrix: the key backup of ${ctx.userId} is not in secret storage; starting a new backup version`);
      await crypto.resetKeyBackup();
    }
  }
  const check = await crypto.checkKeyBackupAndEnable();
  if (ctx.freshStore && check?.backupInfo?.version && (await crypto.getSessionBackupPrivateKey()) !== null) {
    const result = await crypto.restoreKeyBackup();
    ctx.log.info("Matrix: restored message keys from the server-side backup", {
      imported: result.imported,
      total: result.total,
    });
  }
}

/**
 * matrix-js-sdk's secret storage waits for its own account-data writes to come back through
 * `/sync` (`setDefaultKeyId`). Setup runs before `startClient`, so the echo is made here: after
 * each successful write, `ClientEvent.AccountData` is emitted with what was written.
 */
async function withAccountDataEcho<T>(client: MatrixClient, fn: () => Promise<T>): Promise<T> {
  const original = client.setAccountData;
  client.setAccountData = async (...args: Parameters<MatrixClient["setAccountData"]>) => {
    const result = await original.apply(client, args);
    const [type, content] = args;
    client.emit(ClientEvent.AccountData, new MatrixEvent({ type, content: content as Record<string, unknown> }));
    return result;
  };
  try {
    return await fn();
  } finally {
    client.setAccountData = original;
  }
}

/**
 * Runs the whole setup. Failures are logged with their fix and do not stop the channel:
 * messages still encrypt and decrypt without cross-signing or backup.
 */
export async function bootstrapTrust(ctx: BootstrapContext): Promise<void> {
  try {
    await uploadPendingKeys(ctx.crypto);
    await withAccountDataEcho(ctx.client, () => runSetup(ctx));
    // Query our own keys again (this call does for the own user), so the signatures just
    // uploaded for this device count locally: status().verified.
    await ctx.crypto.userHasCrossSigningKeys(ctx.userId, true);
  } catch (error) {
    ctx.log.error(`Matrix: end-to-end encryption setup for ${ctx.userId} is incomplete: ${(error as Error).message}`, {
      error: String(error),
    });
  }
}

async function runSetup(ctx: BootstrapContext): Promise<void> {
  const { crypto, client, log } = ctx;
  const secretStorageExists = await client.secretStorage.hasKey();
  const secretStorageOpen = secretStorageExists && ctx.recovery.known;
  if (secretStorageExists && !ctx.recovery.known) {
    log.warn(
      `Matrix: ${ctx.userId} has secret storage (set up by another client) but no recovery key is known here; ` +
        `write it to ${ctx.recovery.path} (mode 0600) and restart to cross-sign this device and use the key backup.`,
    );
  }
  await setUpCrossSigning(ctx, secretStorageOpen);
  if (!secretStorageExists && (await hasLocalCrossSigningKeys(crypto))) await createSecretStorage(ctx);
  if (secretStorageOpen || ctx.recovery.known) await setUpBackup(ctx);
}
