import { createHmac, timingSafeEqual } from "node:crypto";
import { type FeishuAnswer, feishuError } from "./envelope.js";

/**
 * tenant_access_token issuance and checks. A token is `t-<issued at in ms, base 36>_<HMAC>` keyed by the
 * app's credentials, so a token the SDK cached from an earlier fake with the same app still works
 * (the SDK caches tokens per appId for the whole process) until it expires.
 */
export class TokenIssuer {
  /** Tokens issued before this instant (ms) are refused: `expireTokens()`. */
  private notBefore = 0;
  issued = 0;

  constructor(
    private readonly appId: string,
    private readonly appSecret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => number,
  ) {}

  /** `POST /open-apis/auth/v3/tenant_access_token/internal` with `{app_id, app_secret}`. */
  issue(body: unknown): FeishuAnswer {
    const { app_id, app_secret } = (body ?? {}) as { app_id?: unknown; app_secret?: unknown };
    if (app_id !== this.appId || app_secret !== this.appSecret) return feishuError("badCredentials");
    const issuedAt = Math.floor(this.clock());
    this.issued += 1;
    return {
      status: 200,
      body: { code: 0, msg: "ok", tenant_access_token: this.token(issuedAt), expire: this.ttlSeconds },
    };
  }

  /** True for a bearer token this app's credentials issued that has not run out. */
  isValid(authorization: string | undefined): boolean {
    const match = /^Bearer t-([0-9a-z]+)_([0-9a-f]+)$/.exec(authorization ?? "");
    if (!match) return false;
    const issuedAt = Number.parseInt(match[1]!, 36);
    const expected = Buffer.from(this.token(issuedAt));
    const given = Buffer.from(`t-${match[1]}_${match[2]}`);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    const now = this.clock();
    return issuedAt >= this.notBefore && now < issuedAt + this.ttlSeconds * 1000;
  }

  /** Every token issued so far stops working (the next request gets 99991663). */
  expireAll(): void {
    this.notBefore = Math.floor(this.clock()) + 1;
  }

  private token(issuedAt: number): string {
    const mac = createHmac("sha256", this.appSecret).update(`${this.appId}:${issuedAt}`).digest("hex").slice(0, 32);
    return `t-${issuedAt.toString(36)}_${mac}`;
  }
}
