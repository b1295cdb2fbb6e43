import { ok, type QQAnswer, qqError } from "./errors.js";
import { uploadFile } from "./media.js";
import { sendMessage } from "./messages.js";
import type { QQStore, TargetKey } from "./store.js";
import { streamChunk } from "./streams.js";
import { type TokenIssuer, tokenFromAuth } from "./tokens.js";

/** What the REST routes need from the server. */
export interface RouteContext {
  store: QQStore;
  tokens: TokenIssuer;
  /** "ws://127.0.0.1:<port>/websocket". */
  gatewayUrl: string;
}

const SEND_PATHS: [RegExp, TargetKey extends `${infer K}:${string}` ? K : never][] = [
  [/^\/v2\/users\/([^/]+)\/messages$/, "c2c"],
  [/^\/v2\/groups\/([^/]+)\/messages$/, "group"],
  [/^\/channels\/([^/]+)\/messages$/, "channel"],
  [/^\/dms\/([^/]+)\/messages$/, "dm"],
];

/**
 * Answers one HTTP request. The token endpoint needs no auth; everything else needs
 * `Authorization: QQBot <access_token>` with a live token.
 */
export async function route(
  ctx: RouteContext,
  method: string,
  pathname: string,
  authorization: string | undefined,
  body: unknown,
): Promise<QQAnswer> {
  if (pathname === "/app/getAppAccessToken") {
    return method === "POST" ? ctx.tokens.issue(body) : qqError("notFound");
  }
  if (!ctx.tokens.isValid(tokenFromAuth(authorization))) return qqError("tokenInvalid");
  if (method === "GET" && pathname === "/gateway") return ok({ url: ctx.gatewayUrl });
  if (method === "GET" && pathname === "/gateway/bot") {
    return ok({
      url: ctx.gatewayUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
    });
  }
  if (method !== "POST") return qqError("notFound");
  const files = /^\/v2\/(users|groups)\/([^/]+)\/files$/.exec(pathname);
  if (files) return uploadFile(ctx.store, `${files[1] === "users" ? "c2c" : "group"}:${decodeURIComponent(files[2]!)}`, body);
  const stream = /^\/v2\/users\/([^/]+)\/stream_messages$/.exec(pathname);
  if (stream) return streamChunk(ctx.store, decodeURIComponent(stream[1]!), body);
  for (const [pattern, kind] of SEND_PATHS) {
    const match = pattern.exec(pathname);
    if (match) return sendMessage(ctx.store, `${kind}:${decodeURIComponent(match[1]!)}`, body);
  }
  return qqError("notFound");
}
