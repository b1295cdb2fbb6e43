/**
 * The account's recovery key (the secret storage key, "Security Key" in Element): kept in
 * `<crypto dir>/recovery-key`, mode 0600, and handed to matrix-js-sdk through `cryptoCallbacks`.
 */
import type { MatrixClient } from "matrix-js-sdk";
import type { CryptoCallbacks } from "matrix-js-sdk/lib/crypto-api/index.js";
import { decodeRecoveryKey } from "../matrix-sdk.js";
import { readOptionalFile, writePrivateFileAtomic } from "./private-file.js";

export const RECOVERY_KEY_FILE = "recovery-key";

export class RecoveryKey {
  private encoded: string | undefined;
  private cached: Uint8Array | undefined;
  private client: MatrixClient | undefined;

  /** `explicit` (from the caller's options) wins over the file. */
  constructor(
    readonly path: string,
    explicit?: string,
  ) {
    this.encoded = explicit?.trim() || undefined;
  }

  /** Reads the file unless a key was given explicitly. Throws on a key that does not decode. */
  async load(): Promise<void> {
    if (this.encoded === undefined) {
      const text = (await readOptionalFile(this.path))?.toString("utf8").trim();
      this.encoded = text || undefined;
    }
    if (this.encoded !== undefined) {
      try {
        this.cached = decodeRecoveryKey(this.encoded);
      } catch (error) {
        throw new Error(
          `The Matrix recovery key in ${this.path} is not a valid recovery key (${(error as Error).message}); ` +
            "write the key Element or the first start printed (48 characters in groups of four), or delete the file.",
        );
      }
    }
  }

  /** Whether a key is known (from the options, the file, or created in this process). */
  get known(): boolean {
    return this.cached !== undefined;
  }

  /** Stores a newly created key, 0600. */
  async save(encoded: string, privateKey: Uint8Array): Promise<void> {
    await writePrivateFileAtomic(this.path, `${encoded}\n`);
    this.encoded = encoded;
    this.cached = privateKey;
  }

  /** The callbacks matrix-js-sdk asks for the key through; `bind` the client before use. */
  callbacks(): CryptoCallbacks {
    return {
      getSecretStorageKey: async ({ keys }) => {
        const key = this.cached;
        const client = this.client;
        if (!key || !client) return null;
        for (const [keyId, info] of Object.entries(keys)) {
          if (await client.secretStorage.checkKey(key, info)) return [keyId, key];
        }
        return null;
      },
      cacheSecretStorageKey: (_keyId, _info, key) => {
        this.cached = key;
      },
    };
  }

  bind(client: MatrixClient): void {
    this.client = client;
  }
}
