/**
 * End-to-end encryption for the Matrix channel: a persistent Rust crypto store per account,
 * device trust setup (cross-signing, recovery key, key backup), undecryptable-event tracking and
 * encrypted attachments. Wiring: `openCryptoStore` → `createClient({ ..., ...store.createClientOptions() })`
 * → `store.enable(client)` → `client.startClient()`; `store.persist()` after each handled sync
 * batch; `client.stopClient()` then `e2ee.close()` on stop.
 */
export {
  type CryptoSetupOptions,
  type CryptoStatus,
  type CryptoStore,
  type MatrixE2ee,
  openCryptoStore,
} from "./store.js";
export type { DecryptionHandlers } from "./watch.js";
export { decryptAttachment, type EncryptedAttachment, type EncryptedFile, encryptAttachment } from "./media.js";
