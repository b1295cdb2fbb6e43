import { MatrixError, type RoomActions } from "./actions.js";

export interface RouteContext {
  actions: RoomActions;
  method: string;
  /** Path after `/_matrix/client/<version>` (or `/_matrix/media/<version>` prefixed with `/media`). */
  path: string;
  query: URLSearchParams;
  body: any;
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** The authenticated user, when the request carried a known access token. */
  auth?: { userId: string; deviceId: string; token: string };
  login(userId: string, deviceId?: string): { access_token: string; device_id: string; user_id: string };
}

export type RouteAnswer = { status: number; body: unknown } | { status: number; bytes: Buffer; contentType: string; filename?: string };

type Handler = (ctx: RouteContext, params: string[]) => RouteAnswer | Promise<RouteAnswer>;

const ok = (body: unknown = {}): RouteAnswer => ({ status: 200, body });
const d = decodeURIComponent;

function me(ctx: RouteContext): string {
  if (!ctx.auth) throw new MatrixError(401, "M_MISSING_TOKEN", "Missing or unknown access token");
  return ctx.auth.userId;
}

function ownUser(ctx: RouteContext, userId: string): string {
  const self = me(ctx);
  if (self !== userId) throw new MatrixError(403, "M_FORBIDDEN", `cannot act as ${userId}`);
  return self;
}

const NO_AUTH = new Set(["GET /versions", "GET /login", "POST /login"]);

const routes: Array<[string, RegExp, Handler]> = [
  ["GET", /^\/login$/, () => ok({ flows: [{ type: "m.login.password" }] })],
  [
    "POST",
    /^\/login$/,
    (ctx) => {
      const b = ctx.body ?? {};
      const id: string = b.identifier?.user ?? b.user ?? "";
      const userId = id.startsWith("@") ? id : `@${id}:${ctx.actions.store.serverName}`;
      const user = ctx.actions.store.users.get(userId);
      if (b.type !== "m.login.password" || !user || user.password !== b.password)
        throw new MatrixError(403, "M_FORBIDDEN", "Invalid username or password");
      return ok(ctx.login(userId, b.device_id));
    },
  ],
  ["POST", /^\/logout$/, (ctx) => (ctx.actions.store.tokens.delete(ctx.auth?.token ?? ""), ok())],
  ["GET", /^\/account\/whoami$/, (ctx) => ok({ user_id: me(ctx), device_id: ctx.auth?.deviceId, is_guest: false })],
  ["GET", /^\/capabilities$/, () => ok({ capabilities: { "m.change_password": { enabled: false } } })],
  ["GET", /^\/pushrules\/?$/, () => ok({ global: { override: [], content: [], room: [], sender: [], underride: [] } })],
  [
    "POST",
    /^\/user\/([^/]+)\/filter$/,
    (ctx, [u]) => {
      const user = ctx.actions.store.user(ownUser(ctx, d(u!)));
      user.filters.push(ctx.body);
      return ok({ filter_id: String(user.filters.length - 1) });
    },
  ],
  ["GET", /^\/user\/([^/]+)\/filter\/(\d+)$/, (ctx, [u, id]) => ok(ctx.actions.store.user(ownUser(ctx, d(u!))).filters[Number(id)] ?? {})],
  [
    "GET",
    /^\/user\/([^/]+)\/account_data\/([^/]+)$/,
    (ctx, [u, type]) => {
      const entry = ctx.actions.store.user(ownUser(ctx, d(u!))).accountData.get(d(type!));
      if (!entry) throw new MatrixError(404, "M_NOT_FOUND", "Account data not found");
      return ok(entry.content);
    },
  ],
  [
    "PUT",
    /^\/user\/([^/]+)\/account_data\/([^/]+)$/,
    (ctx, [u, type]) => (ctx.actions.setAccountData(ownUser(ctx, d(u!)), d(type!), ctx.body), ok()),
  ],
  [
    "PUT",
    /^\/user\/([^/]+)\/rooms\/([^/]+)\/account_data\/([^/]+)$/,
    (ctx, [u, r, type]) => (ctx.actions.setAccountData(ownUser(ctx, d(u!)), d(type!), ctx.body, d(r!)), ok()),
  ],
  ["GET", /^\/profile\/([^/]+)$/, (ctx, [u]) => ok({ displayname: ctx.actions.store.user(d(u!)).displayName })],
  ["GET", /^\/profile\/([^/]+)\/displayname$/, (ctx, [u]) => ok({ displayname: ctx.actions.store.user(d(u!)).displayName })],
  ["GET", /^\/profile\/([^/]+)\/avatar_url$/, () => ok({})],
  [
    "PUT",
    /^\/profile\/([^/]+)\/displayname$/,
    (ctx, [u]) => {
      ctx.actions.store.user(ownUser(ctx, d(u!))).displayName = ctx.body?.displayname;
      return ok();
    },
  ],
  ["PUT", /^\/presence\/([^/]+)\/status$/, () => ok()],
  ["GET", /^\/presence\/([^/]+)\/status$/, () => ok({ presence: "online" })],
  ["GET", /^\/voip\/turnServer$/, () => ok({})],
  ["GET", /^\/thirdparty\/protocols$/, () => ok({})],
  ["GET", /^\/devices$/, (ctx) => ok({ devices: [{ device_id: ctx.auth?.deviceId, user_id: me(ctx) }] })],
  [
    "GET",
    /^\/joined_rooms$/,
    (ctx) =>
      ok({
        joined_rooms: [...ctx.actions.store.rooms.values()]
          .filter((r) => ctx.actions.store.membership(r, me(ctx)) === "join")
          .map((r) => r.roomId),
      }),
  ],
  ["POST", /^\/keys\/upload$/, () => ok({ one_time_key_counts: { signed_curve25519: 50 } })],
  ["POST", /^\/keys\/query$/, () => ok({ device_keys: {}, failures: {}, master_keys: {}, self_signing_keys: {}, user_signing_keys: {} })],
  ["POST", /^\/keys\/claim$/, () => ok({ one_time_keys: {}, failures: {} })],
  ["GET", /^\/keys\/changes$/, () => ok({ changed: [], left: [] })],
  ["PUT", /^\/sendToDevice\/([^/]+)\/([^/]+)$/, () => ok()],
  [
    "GET",
    /^\/room_keys\/version$/,
    () => {
      throw new MatrixError(404, "M_NOT_FOUND", "No backup found");
    },
  ],
  ["POST", /^\/createRoom$/, (ctx) => ok({ room_id: ctx.actions.createRoom(me(ctx), ctx.body) })],
  [
    "GET",
    /^\/directory\/room\/([^/]+)$/,
    (ctx, [alias]) => ok({ room_id: ctx.actions.store.room(d(alias!)).roomId, servers: [ctx.actions.store.serverName] }),
  ],
  [
    "POST",
    /^\/(?:rooms\/([^/]+)\/join|join\/([^/]+))$/,
    (ctx, [a, b]) => ok({ room_id: ctx.actions.membership(me(ctx), d((a ?? b)!), me(ctx), "join") }),
  ],
  ["POST", /^\/rooms\/([^/]+)\/leave$/, (ctx, [r]) => (ctx.actions.membership(me(ctx), d(r!), me(ctx), "leave"), ok())],
  ["POST", /^\/rooms\/([^/]+)\/forget$/, () => ok()],
  ["POST", /^\/rooms\/([^/]+)\/invite$/, (ctx, [r]) => (ctx.actions.membership(me(ctx), d(r!), String(ctx.body?.user_id), "invite"), ok())],
  [
    "PUT",
    /^\/rooms\/([^/]+)\/send\/([^/]+)\/([^/]+)$/,
    (ctx, [r, type, txn]) => {
      const key = `${ctx.auth?.token}\0${d(txn!)}`;
      const known = ctx.actions.store.txns.get(key);
      if (known) return ok({ event_id: known });
      const ev = ctx.actions.send(me(ctx), d(r!), d(type!), ctx.body, d(txn!));
      ctx.actions.store.txns.set(key, String(ev.event_id));
      return ok({ event_id: ev.event_id });
    },
  ],
  [
    "PUT",
    /^\/rooms\/([^/]+)\/redact\/([^/]+)\/([^/]+)$/,
    (ctx, [r, eventId, txn]) => ok({ event_id: ctx.actions.redact(me(ctx), d(r!), d(eventId!), ctx.body?.reason, d(txn!)).event_id }),
  ],
  [
    "PUT",
    /^\/rooms\/([^/]+)\/state\/([^/]+)(?:\/([^/]*))?$/,
    (ctx, [r, type, key]) => ok({ event_id: ctx.actions.setState(me(ctx), d(r!), d(type!), d(key ?? ""), ctx.body).event_id }),
  ],
  [
    "GET",
    /^\/rooms\/([^/]+)\/state\/([^/]+)(?:\/([^/]*))?$/,
    (ctx, [r, type, key]) => {
      me(ctx);
      const ev = ctx.actions.store.room(d(r!)).state.get(`${d(type!)}\0${d(key ?? "")}`);
      if (!ev) throw new MatrixError(404, "M_NOT_FOUND", "Event not found");
      return ok(ev.content);
    },
  ],
  ["GET", /^\/rooms\/([^/]+)\/state$/, (ctx, [r]) => (me(ctx), ok([...ctx.actions.store.room(d(r!)).state.values()]))],
  [
    "GET",
    /^\/rooms\/([^/]+)\/members$/,
    (ctx, [r]) => (me(ctx), ok({ chunk: [...ctx.actions.store.room(d(r!)).state.values()].filter((ev) => ev.type === "m.room.member") })),
  ],
  [
    "GET",
    /^\/rooms\/([^/]+)\/joined_members$/,
    (ctx, [r]) => {
      const room = ctx.actions.store.room(d(r!));
      const joined = ctx.actions.store.members(room);
      return ok({ joined: Object.fromEntries(joined.map((u) => [u, { display_name: ctx.actions.store.users.get(u)?.displayName }])) });
    },
  ],
  [
    "GET",
    /^\/rooms\/([^/]+)\/event\/([^/]+)$/,
    (ctx, [r, e]) => {
      me(ctx);
      const ev = ctx.actions.store.findEvent(ctx.actions.store.room(d(r!)), d(e!));
      if (!ev) throw new MatrixError(404, "M_NOT_FOUND", "Event not found");
      return ok(ev);
    },
  ],
  ["GET", /^\/rooms\/([^/]+)\/messages$/, (ctx) => ok({ chunk: [], start: ctx.query.get("from") ?? "p0", state: [] })],
  [
    "PUT",
    /^\/rooms\/([^/]+)\/typing\/([^/]+)$/,
    (ctx, [r, u]) => (ctx.actions.typing(ownUser(ctx, d(u!)), d(r!), Boolean(ctx.body?.typing)), ok()),
  ],
  [
    "POST",
    /^\/rooms\/([^/]+)\/receipt\/([^/]+)\/([^/]+)$/,
    (ctx, [r, type, e]) => (ctx.actions.receipt(me(ctx), d(r!), d(type!), d(e!)), ok()),
  ],
  [
    "POST",
    /^\/rooms\/([^/]+)\/read_markers$/,
    (ctx, [r]) => {
      const read = ctx.body?.["m.read"];
      if (read) ctx.actions.receipt(me(ctx), d(r!), "m.read", read);
      return ok();
    },
  ],
  ["GET", /^\/media\/config$/, () => ok({ "m.upload.size": 50 * 1024 * 1024 })],
  [
    "POST",
    /^\/media\/upload$/,
    (ctx) => {
      const type = String(ctx.headers["content-type"] ?? "application/octet-stream");
      return ok({ content_uri: ctx.actions.upload(me(ctx), ctx.raw, type, ctx.query.get("filename") ?? undefined) });
    },
  ],
  [
    "GET",
    /^\/media\/(?:download|thumbnail)\/([^/]+)\/([^/]+)(?:\/[^/]*)?$/,
    (ctx, [server, id]) => {
      const media = d(server!) === ctx.actions.store.serverName ? ctx.actions.store.media.get(d(id!)) : undefined;
      if (!media) throw new MatrixError(404, "M_NOT_FOUND", "Not found");
      return { status: 200, bytes: media.bytes, contentType: media.contentType, filename: media.filename };
    },
  ],
];

/** Answers one client-server API request; unknown endpoints get 404 `M_UNRECOGNIZED` as on Synapse. */
export async function route(ctx: RouteContext): Promise<RouteAnswer> {
  for (const [method, pattern, handler] of routes) {
    if (method !== ctx.method) continue;
    const match = pattern.exec(ctx.path);
    if (!match) continue;
    const open = NO_AUTH.has(`${method} ${ctx.path}`) || ctx.path.startsWith("/media/download/");
    if (!ctx.auth && !open) throw new MatrixError(401, "M_UNKNOWN_TOKEN", "Unknown access token");
    return handler(ctx, match.slice(1) as string[]);
  }
  throw new MatrixError(404, "M_UNRECOGNIZED", `Unrecognized request: ${ctx.method} ${ctx.path}`);
}
