import type { CardKit } from "./cardkit.js";
import { type FeishuAnswer, feishuError } from "./envelope.js";
import type { RequestBody } from "./http-body.js";
import type { LongConnections } from "./long-connection.js";
import { downloadImage, uploadFile, uploadImage } from "./media.js";
import {
  createMessage,
  deleteMessage,
  editMessage,
  getMessage,
  type MessageContext,
  messageResource,
  reactionRoute,
  replyMessage,
} from "./messages.js";
import type { TokenIssuer } from "./tokens.js";

/** What the HTTP routes need from the server. */
export interface RouteContext extends MessageContext {
  tokens: TokenIssuer;
  cards: CardKit;
  longConnections: LongConnections;
  port: () => number;
  bot: { openId: string; name: string };
}

/** One HTTP request, parsed. */
export interface RouteRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: RequestBody;
}

type Json = Record<string, unknown>;
const jsonOf = (body: RequestBody): Json => (typeof body.json === "object" && body.json !== null ? (body.json as Json) : {});
const seg = (s: string) => decodeURIComponent(s);

/** Answers one request. The token and long-connection bootstrap need no token; the rest need `Authorization: Bearer t-...`. */
export function route(ctx: RouteContext, req: RouteRequest): FeishuAnswer {
  const { method, pathname } = req;
  const body = jsonOf(req.body);
  if (method === "POST" && pathname === "/open-apis/auth/v3/tenant_access_token/internal") return ctx.tokens.issue(body);
  if (method === "POST" && pathname === "/callback/ws/endpoint") return ctx.longConnections.bootstrap(body, ctx.port());
  if (!ctx.tokens.isValid(req.authorization)) return feishuError("tokenInvalid");

  if (method === "GET" && pathname === "/open-apis/bot/v3/info") {
    const bot = { activate_status: 2, app_name: ctx.bot.name, avatar_url: "", ip_white_list: [], open_id: ctx.bot.openId };
    return { status: 200, body: { code: 0, msg: "ok", bot } };
  }
  return imRoute(ctx, req, body) ?? cardRoute(ctx, req, body) ?? feishuError("notFound");
}

function imRoute(ctx: RouteContext, req: RouteRequest, body: Json): FeishuAnswer | undefined {
  const { method, pathname } = req;
  if (pathname === "/open-apis/im/v1/messages" && method === "POST") return createMessage(ctx, req.query, body);
  if (pathname === "/open-apis/im/v1/images" && method === "POST") return uploadImage(ctx.store, req.body);
  if (pathname === "/open-apis/im/v1/files" && method === "POST") return uploadFile(ctx.store, req.body);
  let m = /^\/open-apis\/im\/v1\/images\/([^/]+)$/.exec(pathname);
  if (m && method === "GET") return downloadImage(ctx.store, seg(m[1]!));
  m = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reply$/.exec(pathname);
  if (m && method === "POST") return replyMessage(ctx, seg(m[1]!), body);
  m = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/reactions(?:\/([^/]+))?$/.exec(pathname);
  if (m) return reactionRoute(ctx, method, seg(m[1]!), m[2] === undefined ? undefined : seg(m[2]), body);
  m = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/resources\/([^/]+)$/.exec(pathname);
  if (m && method === "GET") return messageResource(ctx, seg(m[1]!), seg(m[2]!), req.query);
  m = /^\/open-apis\/im\/v1\/messages\/([^/]+)$/.exec(pathname);
  if (m) {
    const id = seg(m[1]!);
    if (method === "PUT" || method === "PATCH") return editMessage(ctx, id, body, method);
    if (method === "DELETE") return deleteMessage(ctx, id);
    if (method === "GET") return getMessage(ctx, id);
  }
  return undefined;
}

function cardRoute(ctx: RouteContext, req: RouteRequest, body: Json): FeishuAnswer | undefined {
  const { method, pathname } = req;
  if (pathname === "/open-apis/cardkit/v1/cards" && method === "POST") return ctx.cards.create(body);
  let m = /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)$/.exec(pathname);
  if (m && method === "PUT") return ctx.cards.replace(seg(m[1]!), body);
  m = /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)\/settings$/.exec(pathname);
  if (m && method === "PATCH") return ctx.cards.settings(seg(m[1]!), body);
  m = /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)\/elements$/.exec(pathname);
  if (m && method === "POST") return ctx.cards.addElements(seg(m[1]!), body);
  m = /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)\/elements\/([^/]+)\/content$/.exec(pathname);
  if (m && method === "PUT") return ctx.cards.setContent(seg(m[1]!), seg(m[2]!), body);
  m = /^\/open-apis\/cardkit\/v1\/cards\/([^/]+)\/elements\/([^/]+)$/.exec(pathname);
  if (m) {
    const [cardId, elementId] = [seg(m[1]!), seg(m[2]!)];
    if (method === "PUT" || method === "PATCH") return ctx.cards.updateElement(cardId, elementId, body, method === "PATCH");
    if (method === "DELETE") return ctx.cards.deleteElement(cardId, elementId, body);
  }
  return undefined;
}
