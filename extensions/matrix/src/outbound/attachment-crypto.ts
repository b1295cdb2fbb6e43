/**
 * Encrypted attachments as Matrix specifies them for end-to-end encrypted rooms (AES-256-CTR,
 * the key as a JWK, a SHA-256 of the ciphertext; `v2`): files the bot sends into encrypted rooms
 * are encrypted before upload, files it receives there are checked and decrypted after download.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** The `file` object of an encrypted attachment (`EncryptedFile` in the spec). */
export interface EncryptedFile {
  url: string;
  key: { kty: "oct"; key_ops: string[]; alg: "A256CTR"; k: string; ext: true };
  iv: string;
  hashes: { sha256: string };
  v: "v2";
}

const unpadded = (b64: string): string => b64.replace(/=+$/, "");

/** Encrypts `plain`; returns the ciphertext to upload and the `file` object without its `url`. */
export function encryptAttachment(plain: Uint8Array): { data: Buffer; file: Omit<EncryptedFile, "url"> } {
  const key = randomBytes(32);
  const iv = Buffer.concat([randomBytes(8), Buffer.alloc(8)]);
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return {
    data,
    file: {
      key: { kty: "oct", key_ops: ["encrypt", "decrypt"], alg: "A256CTR", k: key.toString("base64url"), ext: true },
      iv: unpadded(iv.toString("base64")),
      hashes: { sha256: unpadded(createHash("sha256").update(data).digest("base64")) },
      v: "v2",
    },
  };
}

/** Decrypts a downloaded attachment; throws when its hash does not match (a tampered or wrong file). */
export function decryptAttachment(data: Uint8Array, file: Pick<EncryptedFile, "key" | "iv" | "hashes">): Buffer {
  const hash = unpadded(createHash("sha256").update(data).digest("base64"));
  if (hash !== unpadded(file.hashes.sha256)) throw new Error("Matrix: the encrypted attachment does not match its sha256 hash");
  const key = Buffer.from(file.key.k, "base64url");
  const iv = Buffer.from(file.iv, "base64");
  const decipher = createDecipheriv("aes-256-ctr", key, iv);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}
