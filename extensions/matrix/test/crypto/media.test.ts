import { createHash, webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptAttachment, encryptAttachment } from "../../src/crypto/index.js";

const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);

/** Element's matrix-encrypt-attachment, in WebCrypto terms: AES-CTR with a 64-bit counter. */
async function elementEncrypt(plaintext: Uint8Array) {
  const keyBytes = webcrypto.getRandomValues(new Uint8Array(32));
  const iv = new Uint8Array(16);
  webcrypto.getRandomValues(iv.subarray(0, 8));
  const key = await webcrypto.subtle.importKey("raw", keyBytes, "AES-CTR", true, ["encrypt", "decrypt"]);
  const ciphertext = new Uint8Array(await webcrypto.subtle.encrypt({ name: "AES-CTR", counter: iv, length: 64 }, key, plaintext));
  const jwk = await webcrypto.subtle.exportKey("jwk", key);
  const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64").replace(/=+$/, "");
  return {
    ciphertext,
    file: {
      key: { alg: "A256CTR" as const, key_ops: ["encrypt", "decrypt"], kty: "oct" as const, k: jwk.k as string, ext: true as const },
      iv: b64(iv),
      hashes: { sha256: b64(createHash("sha256").update(ciphertext).digest()) },
      v: "v2" as const,
    },
  };
}

async function elementDecrypt(ciphertext: Uint8Array, file: { key: { k: string }; iv: string }) {
  const key = await webcrypto.subtle.importKey(
    "jwk",
    { kty: "oct", k: file.key.k, alg: "A256CTR", key_ops: ["encrypt", "decrypt"], ext: true },
    "AES-CTR",
    false,
    ["decrypt"],
  );
  const counter = Buffer.from(file.iv, "base64");
  return new Uint8Array(await webcrypto.subtle.decrypt({ name: "AES-CTR", counter, length: 64 }, key, ciphertext));
}

describe("encrypted attachments", () => {
  it("round-trips and produces the spec's file object", () => {
    const plain = bytes(100_003);
    const { data, file } = encryptAttachment(plain);
    expect(Buffer.from(data).equals(Buffer.from(plain))).toBe(false);
    expect(data.byteLength).toBe(plain.byteLength);
    expect(file.v).toBe("v2");
    expect(file.key).toMatchObject({ alg: "A256CTR", kty: "oct", ext: true, key_ops: ["encrypt", "decrypt"] });
    expect(file.key.k).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(file.iv).toMatch(/^[A-Za-z0-9+/]{22}$/);
    expect(
      Buffer.from(file.iv, "base64")
        .subarray(8)
        .every((b) => b === 0),
    ).toBe(true);
    expect(file.hashes.sha256).toBe(createHash("sha256").update(data).digest("base64").replace(/=+$/, ""));
    expect(Buffer.from(decryptAttachment(data, file)).equals(Buffer.from(plain))).toBe(true);
  });

  it("uses a new key and iv for every file", () => {
    const a = encryptAttachment(bytes(64));
    const b = encryptAttachment(bytes(64));
    expect(a.file.key.k).not.toBe(b.file.key.k);
    expect(a.file.iv).not.toBe(b.file.iv);
  });

  it("decrypts what Element's WebCrypto scheme encrypts, and Element decrypts ours", async () => {
    const plain = bytes(70_000);
    const element = await elementEncrypt(plain);
    expect(Buffer.from(decryptAttachment(element.ciphertext, element.file)).equals(Buffer.from(plain))).toBe(true);
    const ours = encryptAttachment(plain);
    expect(Buffer.from(await elementDecrypt(ours.data, ours.file)).equals(Buffer.from(plain))).toBe(true);
  });

  it("refuses a tampered file, a wrong hash, an unknown version or key type", () => {
    const { data, file } = encryptAttachment(bytes(256));
    const tampered = Uint8Array.from(data);
    tampered[10] = (tampered[10] ?? 0) ^ 1;
    expect(() => decryptAttachment(tampered, file)).toThrow(/sha256/);
    expect(() => decryptAttachment(data, { ...file, hashes: { sha256: "" } })).toThrow(/no sha256/);
    expect(() => decryptAttachment(data, { ...file, v: "v1" })).toThrow(/version v1/);
    expect(() => decryptAttachment(data, { ...file, key: { ...file.key, alg: "A128CTR" as "A256CTR" } })).toThrow(/A256CTR/);
  });
});
