import { randomBytes } from "node:crypto";
import { ok, type QQAnswer, qqError } from "./errors.js";

/**
 * Access tokens: `POST /app/getAppAccessToken` issues a fresh one per call (older ones stay valid
 * until they run out, as on the platform); `expireAll` refuses every token issued so far.
 */
export class TokenIssuer {
  private readonly tokens = new Map<string, number>();

  constructor(
    private readonly appId: string,
    private readonly clientSecret: string,
    private readonly ttlSeconds: number,
  ) {}

  /** Answers the token endpoint; `appId` and `clientSecret` must both match. */
  issue(body: unknown): QQAnswer {
    const { appId, clientSecret } = (body ?? {}) as { appId?: unknown; clientSecret?: unknown };
    if (appId === undefined || clientSecret === undefined) return qqError("requestInvalid", "appId and clientSecret are required");
    if (String(appId) !== this.appId || clientSecret !== this.clientSecret) return qqError("badSecret");
    const token = randomBytes(24).toString("base64url");
    this.tokens.set(token, Date.now() + this.ttlSeconds * 1000);
    // expires_in is a string on the real platform.
    return ok({ access_token: token, expires_in: String(this.ttlSeconds) });
  }

  /** True for a token issued here that has neither run out nor been expired. */
  isValid(token: string | undefined): boolean {
    if (!token) return false;
    const until = this.tokens.get(token);
    return until !== undefined && Date.now() < until;
  }

  expireAll(): void {
    this.tokens.clear();
  }
}

/** The token in an `Authorization: QQBot <token>` header (or Identify/Resume `token`), or undefined. */
export function tokenFromAuth(value: unknown): string | undefined {
  return typeof value === "string" ? /^QQBot\s+(\S+)$/.exec(value.trim())?.[1] : undefined;
}
