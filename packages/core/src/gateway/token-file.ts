import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** `<stateDir>/gateway.token`: the generated control API token, readable by the owner only. */
export function gatewayTokenPath(stateDir: string): string {
  return path.join(stateDir, "gateway.token");
}

/** The token kept in `<stateDir>/gateway.token`, or undefined when there is none (or it is empty). */
export function readGatewayTokenFile(stateDir: string): string | undefined {
  try {
    const text = readFileSync(gatewayTokenPath(stateDir), "utf8").trim();
    return text === "" ? undefined : text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * The token in `<stateDir>/gateway.token`, generating one (32 random bytes, base64url) when the
 * file is missing or empty. The file is (re)written with mode 0600 and its folder created 0700.
 */
export function ensureGatewayTokenFile(stateDir: string): { token: string; created: boolean } {
  const existing = readGatewayTokenFile(stateDir);
  const file = gatewayTokenPath(stateDir);
  if (existing) {
    chmodSync(file, 0o600);
    return { token: existing, created: false };
  }
  const token = randomBytes(32).toString("base64url");
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, created: true };
}
