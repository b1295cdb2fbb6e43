// Plugin HTTP routes served on the gateway's own listener (webhook mode of channels).
import { afterEach, describe, expect, it } from "vitest";
import { AccountConfigError } from "@openclaw/plugin-sdk";
import { ControlServer } from "./control-server.js";
import { HttpRouteTable } from "./http-routes.js";

const log = { debug() {}, info() {}, warn() {}, error() {} };
let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(routes: HttpRouteTable): Promise<string> {
  server = new ControlServer({ host: "127.0.0.1", port: 0, token: "t", methods: {}, hello: () => ({}), log: log as never, routes });
  return `http://127.0.0.1:${await server.listen()}`;
}

describe("plugin HTTP routes", () => {
  it("serve a registered path on the control API's port with the raw body, until released", async () => {
    const routes = new HttpRouteTable(log as never);
    const scope = routes.scope("feishu:default");
    const seen: Array<{ body: string; sig: string | undefined }> = [];
    const release = scope.route("/feishu/events", async (req) => {
      seen.push({ body: Buffer.from(req.body).toString(), sig: req.headers["x-lark-signature"] });
      return { status: 200, body: '{"ok":true}' };
    });
    const base = await start(routes);
    const res = await fetch(`${base}/feishu/events?x=1`, { method: "POST", body: "raw body", headers: { "X-Lark-Signature": "abc" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen).toEqual([{ body: "raw body", sig: "abc" }]);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    release();
    expect((await fetch(`${base}/feishu/events`, { method: "POST", body: "x" })).status).toBe(404);
  });

  it("refuse a body over the limit with 413 without calling the handler; a throwing handler answers 500", async () => {
    const routes = new HttpRouteTable(log as never);
    let calls = 0;
    routes.scope("a").route("/small", async () => (calls++, { status: 200 }), { maxBodyBytes: 10 });
    routes.scope("b").route("/boom", async () => {
      throw new Error("boom");
    });
    const base = await start(routes);
    expect((await fetch(`${base}/small`, { method: "POST", body: "x".repeat(11) })).status).toBe(413);
    expect(calls).toBe(0);
    expect((await fetch(`${base}/boom`, { method: "POST", body: "{}" })).status).toBe(500);
  });

  it("refuse a path taken by another account or the gateway itself, naming the owner", () => {
    const routes = new HttpRouteTable(log as never);
    const first = routes.scope("feishu:a");
    first.route("/feishu/events", async () => ({ status: 200 }));
    expect(() => routes.scope("feishu:b").route("/feishu/events", async () => ({ status: 200 }))).toThrow(/already served for feishu:a/);
    expect(() => routes.scope("x").route("/health", async () => ({ status: 200 }))).toThrow(AccountConfigError);
    first.releaseAll();
    expect(() => routes.scope("feishu:b").route("/feishu/events", async () => ({ status: 200 }))).not.toThrow();
  });
});
