import { randomBytes } from "node:crypto";

/** Uppercase letters and digits without the look-alikes 0, O, 1 and I: 32 symbols. */
export const PAIRING_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** Pairing codes have 8 symbols (40 bits). */
export const PAIRING_CODE_LENGTH = 8;

/**
 * A fresh pairing code from the OS's cryptographic random source. 32 divides 256, so masking a
 * random byte to 5 bits picks every symbol with the same probability.
 */
export function generatePairingCode(): string {
  const bytes = randomBytes(PAIRING_CODE_LENGTH);
  let code = "";
  for (const byte of bytes) code += PAIRING_CODE_ALPHABET[byte & 31];
  return code;
}

/** A code as the user may type it (spaces, dashes, lowercase) in its stored form. */
export function normalizePairingCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}
