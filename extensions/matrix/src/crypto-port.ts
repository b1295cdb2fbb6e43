/**
 * The end-to-end encryption module as this package's session uses it (`./crypto/index.js`, built
 * on the SDK's Rust crypto). The types restate the agreed interface so the session compiles and
 * runs without it; `loadCrypto` imports it only when an account has `encryption: true`.
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";
import type { ICreateClientOpts, MatrixClient, MatrixEvent } from "matrix-js-sdk";

/** Options of `openCryptoStore`. */
export interface CryptoSetupOptions {
  /** `<account credentialsDir>/crypto`, created 0700. */
  dir: string;
  log: PluginLogger;
  userId: string;
  /** For user-interactive auth when uploading cross-signing keys. */
  password?: string;
}

/** The persisted crypto store of one account. */
export interface CryptoStore {
  createClientOptions(): Partial<ICreateClientOpts>;
  enable(client: MatrixClient): Promise<MatrixE2ee>;
  /** Snapshots the store to disk; called after each handled sync batch and on stop. */
  persist(): Promise<void>;
}

/** Encryption of a running client. */
export interface MatrixE2ee {
  status(): { deviceId: string; verified: boolean; crossSigning: boolean; backup: boolean };
  /** Calls back once per undecryptable event, and again with the decrypted event when its key arrives. */
  watch(handlers: { undecryptable(event: MatrixEvent): void; decrypted(event: MatrixEvent): void }): () => void;
  close(): Promise<void>;
}

/** The crypto module. */
export interface CryptoModule {
  openCryptoStore(options: CryptoSetupOptions): Promise<CryptoStore>;
}

/** Imports the crypto module; throws a clear error when this build has none. */
export async function loadCrypto(): Promise<CryptoModule> {
  const specifier = "./crypto/index.js";
  try {
    return (await import(specifier)) as CryptoModule;
  } catch (error) {
    throw new Error(`Matrix: end-to-end encryption is not available in this build of @openclaw/matrix (${(error as Error).message})`);
  }
}
