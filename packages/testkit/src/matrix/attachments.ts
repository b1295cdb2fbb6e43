import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** The `file` object of an encrypted Matrix attachment (spec: EncryptedFile, v2). */
export interface EncryptedFile {
  url: string;
  key: { kty: "oct"; key_ops: string[]; alg: "A256CTR"; k: string; ext: true };
  iv: string;
  hashes: { sha256: string };
  v: "v2";
  mimetype?: string;
}

const unpadded = (bytes: Buffer): string => bytes.toString("base64").replace(/=+$/, "");

/** Encrypts attachment bytes as Element does: AES-256-CTR, a 64-bit random IV half, SHA-256 of the ciphertext. */
export function encryptAttachment(plain: Uint8Array): { data: Buffer; file: Omit<EncryptedFile, "url"> } {
  const key = randomBytes(32);
  const iv = Buffer.concat([randomBytes(8), Buffer.alloc(8)]);
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return {
    data,
    file: {
      key: { kty: "oct", key_ops: ["encrypt", "decrypt"], alg: "A256CTR", k: key.toString("base64url"), ext: true },
      iv: unpadded(iv),
      hashes: { sha256: unpadded(createHash("sha256").update(data).digest()) },
      v: "v2",
    },
  };
}

/** Checks the SHA-256 and decrypts; throws when the hash does not match. */
export function decryptAttachment(data: Uint8Array, file: Pick<EncryptedFile, "key" | "iv" | "hashes">): Buffer {
  const hash = unpadded(createHash("sha256").update(data).digest());
  if (hash !== file.hashes.sha256.replace(/=+$/, "")) throw new Error("encrypted attachment: SHA-256 mismatch");
  const decipher = createDecipheriv("aes-256-ctr", Buffer.from(file.key.k, "base64url"), Buffer.from(file.iv, "base64"));
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

const MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  txt: "text/plain",
  pdf: "application/pdf",
  ogg: "audio/ogg",
  mp4: "video/mp4",
};

/** A MIME type from the file name's extension; `application/octet-stream` when unknown. */
export function mimeFromName(name: string): string {
  return MIME[name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}
