/**
 * Feishu's Open API over the plugin SDK's `httpFetch`: the app's tenant access token (fetched at
 * the first call, kept until 3 minutes before it runs out, fetched again at once when the platform
 * refuses it), JSON calls and multipart uploads. Answers come back whole, whatever their status:
 * `FeishuApi` (api.ts) turns them into the contract's errors.
 */
import { httpFetch } from "@openclaw/plugin-sdk";
import { multipartBody, type FormPart } from "./multipart.js";

export type { FormPart } from "./multipart.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Feishu's answer envelope: `code` 0 and `data`, or a code and `msg`. */
export interface Envelope {
  code?: number;
  msg?: string;
  data?: unknown;
  [key: string]: unknown;
}

/** One answer: its HTTP status, its parsed body and its headers. */
export interface OpenApiAnswer {
  status: number;
  body: Envelope;
  header(name: string): string | null;
}

export interface OpenApiRequest {
  method: HttpMethod;
  /** From the Open Platform root, e.g. `/open-apis/im/v1/messages`. */
  path: string;
  query?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A multipart/form-data body (uploads). */
  form?: FormPart[];
}

/** The token endpoint of a self-built app. */
export const TENANT_TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

/** Codes of a missing, invalid or expired token: the call is made again once with a new token. */
export const TOKEN_REFUSED_CODES: ReadonlySet<number> = new Set([99991661, 99991663, 99991664, 99991668, 99991677]);

/** A token is renewed this long before the platform says it runs out. */
const RENEW_BEFORE_MS = 3 * 60_000;

/** The token endpoint refused the app's credentials (or answered something that is not a token). */
export class TenantTokenError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly httpStatus: number,
    /** Feishu's own `msg`. */
    readonly platformMessage: string,
  ) {
    super(message);
    this.name = "TenantTokenError";
  }
}

export interface OpenApiClientOptions {
  appId: string;
  appSecret: string;
  /** The Open Platform root, e.g. `https://open.feishu.cn`. */
  baseUrl: string;
  /** The clock the token's lifetime is measured on (tests move it). */
  now?: () => number;
}

/** The calls of one app. */
export class OpenApiClient {
  private token: { value: string; renewAt: number } | undefined;
  private fetching: Promise<string> | undefined;
  private readonly now: () => number;
  private readonly root: string;

  constructor(private readonly options: OpenApiClientOptions) {
    this.now = options.now ?? Date.now;
    this.root = options.baseUrl.replace(/\/+$/, "");
  }

  /** One call with the tenant token; a refused token is replaced and the call made once more. */
  async request(request: OpenApiRequest): Promise<OpenApiAnswer> {
    const token = await this.tenantToken();
    const answer = await this.send(request, token);
    if (!TOKEN_REFUSED_CODES.has(answer.body.code ?? 0)) return answer;
    if (this.token?.value === token) this.token = undefined;
    return this.send(request, await this.tenantToken());
  }

  /** The cached token, or a new one (one request at a time however many calls wait for it). */
  private async tenantToken(): Promise<string> {
    if (this.token !== undefined && this.now() < this.token.renewAt) return this.token.value;
    this.fetching ??= this.fetchToken().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetchToken(): Promise<string> {
    const answer = await this.send(
      { method: "POST", path: TENANT_TOKEN_PATH, json: { app_id: this.options.appId, app_secret: this.options.appSecret } },
      undefined,
    );
    const { code, msg, tenant_access_token: value, expire } = answer.body as Envelope & { tenant_access_token?: unknown; expire?: unknown };
    if (code !== 0 || typeof value !== "string" || value === "") {
      throw new TenantTokenError(
        `Feishu refused the app's credentials: ${msg || "no message"} (code ${code ?? "none"}, HTTP ${answer.status})`,
        typeof code === "number" ? code : answer.status,
        answer.status,
        msg ?? "",
      );
    }
    const lifetimeMs = (typeof expire === "number" && expire > 0 ? expire : 7200) * 1000;
    this.token = { value, renewAt: this.now() + Math.max(0, lifetimeMs - RENEW_BEFORE_MS) };
    return value;
  }

  private async send(request: OpenApiRequest, token: string | undefined): Promise<OpenApiAnswer> {
    const url = new URL(this.root + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (request.form !== undefined) {
      const multipart = multipartBody(request.form);
      headers["content-type"] = multipart.contentType;
      body = multipart.body;
    } else if (request.json !== undefined) {
      headers["content-type"] = "application/json; charset=utf-8";
      body = JSON.stringify(request.json);
    }
    const response = await httpFetch(url, { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? {} : JSON.parse(text);
    } catch {
      parsed = { msg: text.slice(0, 200) };
    }
    return {
      status: response.status,
      body: parsed !== null && typeof parsed === "object" ? (parsed as Envelope) : {},
      header: (name) => response.headers.get(name),
    };
  }
}
