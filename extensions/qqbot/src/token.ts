/**
 * The app access token: fetched from `tokenUrl` with the AppID and AppSecret, cached, refreshed
 * ahead of expiry (by the smaller of 5 minutes and a third of its lifetime), and fetched once for
 * any number of concurrent callers.
 */
import { AccountConfigError, httpFetch } from "@openclaw/plugin-sdk";

/** What the token manager needs to know about the account. */
export interface TokenSource {
  appId: string;
  clientSecret: string;
  tokenUrl: string;
  /** Config path of the secret, for the error when the platform refuses the credentials. */
  secretPath: string;
}

/** Options of `TokenManager` (tests inject a clock). */
export interface TokenManagerOptions {
  now?: () => number;
  /** Default `httpFetch` (node:http, without undici). */
  fetch?: typeof httpFetch;
}

interface Cached {
  token: string;
  expiresAt: number;
  refreshAt: number;
}

const MAX_LEAD_MS = 5 * 60_000;

/** Fetches and caches one account's access token. */
export class TokenManager {
  readonly #source: TokenSource;
  readonly #now: () => number;
  readonly #fetch: typeof httpFetch;
  #cached: Cached | undefined;
  #inflight: Promise<string> | undefined;
  /** How many token requests were made (for status and tests). */
  fetches = 0;

  constructor(source: TokenSource, options: TokenManagerOptions = {}) {
    this.#source = source;
    this.#now = options.now ?? Date.now;
    this.#fetch = options.fetch ?? httpFetch;
  }

  /**
   * A valid token: the cached one until its refresh point, else a fresh one (concurrent callers
   * share the request).
   * @throws AccountConfigError when the platform refuses the AppID or AppSecret.
   */
  async get(): Promise<string> {
    const cached = this.#cached;
    if (cached !== undefined && this.#now() < cached.refreshAt) return cached.token;
    return this.#refresh();
  }

  /** Forgets the cached token (after the platform refused it) and fetches a new one. */
  async refresh(): Promise<string> {
    this.#cached = undefined;
    return this.#refresh();
  }

  /** Forgets the cached token (the next `get` fetches one). */
  invalidate(token?: string): void {
    if (token === undefined || this.#cached?.token === token) this.#cached = undefined;
  }

  #refresh(): Promise<string> {
    this.#inflight ??= this.#request().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #request(): Promise<string> {
    const { appId, clientSecret, tokenUrl, secretPath } = this.#source;
    this.fetches += 1;
    const started = this.#now();
    const response = await this.#fetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ appId, clientSecret }),
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      code?: unknown;
      message?: unknown;
    };
    const token = typeof body.access_token === "string" ? body.access_token : undefined;
    if (!response.ok || token === undefined || token === "") {
      const why = typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
      if (response.status >= 500) throw new Error(`QQ Bot token endpoint ${tokenUrl} failed: ${why}`);
      throw new AccountConfigError(
        `QQ Bot refused AppID ${appId} and its AppSecret (${why}${body.code !== undefined ? `, code ${String(body.code)}` : ""}): check appId and ${secretPath} against the QQ open platform console (q.qq.com → Development → AppSecret).`,
        secretPath,
      );
    }
    const seconds = Number(body.expires_in ?? 7200);
    const lifetimeMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : 7200) * 1000;
    const lead = Math.min(MAX_LEAD_MS, lifetimeMs / 3);
    this.#cached = { token, expiresAt: started + lifetimeMs, refreshAt: started + lifetimeMs - lead };
    return token;
  }
}
