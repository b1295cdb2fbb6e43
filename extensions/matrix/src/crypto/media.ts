/**
 * Encrypted attachments (Matrix spec "Sending encrypted attachments"): AES-256-CTR with a fresh key
 * and a 16-byte IV whose low 64 bits (the counter) start at zero, SHA-256 of the ciphertext, keys
 * as JWK. The same scheme Element uses (matrix-encrypt-attachment), so files cross both ways.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** The `file` object of an encrypted `m.image`/`m.file`/… event, `url` included once uploaded. */
export interface EncryptedFile {
  url: string;
  key: { alg: "A256CTR"; key_ops: string[]; kty: "oct"; k: string; ext: true };
  iv: string;
  hashes: { sha256: string; [algorithm: string]: string };
  v: "v2";
}

export interface EncryptedAttachment {
  /** The ciphertext to upload (as `application/octet-stream`). */
  data: Uint8Array;
  /** Put `{ ...file, url: mxcUrl }` into the event content as `file` (or `thumbnail_file`). */
  file: Omit<EncryptedFile, "url">;
}

function unpaddedBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64").replace(/=+$/, "");
}

function fromBase64(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** Encrypts `plaintext` with a new key; returns the bytes to upload and the event's `file` object. */
export function encryptAttachment(plaintext: Uint8Array): EncryptedAttachment {
  const key = randomBytes(32);
  const iv = Buffer.concat([randomBytes(8), Buffer.alloc(8)]);
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    file: {
      key: { alg: "A256CTR", key_ops: ["encrypt", "decrypt"], kty: "oct", k: key.toString("base64url"), ext: true },
      iv: unpaddedBase64(iv),
      hashes: { sha256: unpaddedBase64(createHash("sha256").update(data).digest()) },
      v: "v2",
    },
  };
}

/**
 * Checks and decrypts a downloaded encrypted file. Throws when the `file` object is not a
 * supported v2 AES-CTR key or the SHA-256 of `ciphertext` does not match (corrupt or tampered).
 */
export function decryptAttachment(ciphertext: Uint8Array, file: Pick<EncryptedFile, "key" | "iv" | "hashes"> & { v?: string }): Uint8Array {
  if (file.v !== undefined && file.v !== "v2") throw new Error(`unsupported encrypted attachment version ${file.v}`);
  if (file.key?.alg !== "A256CTR" || file.key.kty !== "oct") {
    throw new Error("unsupported encrypted attachment key: expected an A256CTR JWK");
  }
  const expected = file.hashes?.sha256;
  if (!expected) throw new Error("encrypted attachment has no sha256 hash");
  const actual = createHash("sha256").update(ciphertext).digest();
  const wanted = fromBase64(expected);
  if (wanted.length !== actual.length || !timingSafeEqual(wanted, actual)) {
    throw new Error("encrypted attachment does not match its sha256 hash");
  }
  const key = fromBase64(file.key.k);
  const iv = fromBase64(file.iv);
  if (key.length !== 32 || iv.length !== 16) throw new Error("encrypted attachment key or iv has the wrong length");
  const decipher = createDecipheriv("aes-256-ctr", key, iv);
  const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength);
}
