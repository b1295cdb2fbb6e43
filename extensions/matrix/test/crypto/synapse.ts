/**
 * TEMPORARY stand-in for `@openclaw/testkit/matrix` (branch mx-infra) with the agreed interface;
 * replaced by a re-export once that lands.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  ClientEvent,
  createClient,
  type MatrixClient,
  type MatrixEvent,
  MatrixEventEvent,
  Preset,
  RoomEvent,
  SyncState,
} from "matrix-js-sdk";

export interface Synapse {
  baseUrl: string;
  serverName: string;
  registerUser(
    localpart: string,
    opts?: { password?: string; admin?: boolean },
  ): Promise<{ userId: string; accessToken: string; deviceId: string; password: string }>;
  stop(): Promise<void>;
}

const SECRET = "test-shared-secret";

async function freePort(): Promise<number> {
  return await new Promise((ok) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => ok(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startSynapse(): Promise<Synapse> {
  const python = process.env.SYNAPSE_PYTHON ?? resolve(import.meta.dirname, "../../../../.synapse/venv/bin/python");
  if (!existsSync(python)) throw new Error(`Synapse is not installed (${python} missing); run bash scripts/install-synapse.sh`);
  const dir = mkdtempSync(join(tmpdir(), "synapse-"));
  const port = await freePort();
  const limit = "{per_second: 1000, burst_count: 1000}";
  const config = `server_name: "localhost"
pid_file: ${dir}/homeserver.pid
listeners:
  - {port: ${port}, bind_addresses: ['127.0.0.1'], type: http, tls: false, resources: [{names: [client], compress: false}]}
database: {name: sqlite3, args: {database: ${dir}/homeserver.db}}
media_store_path: ${dir}/media
registration_shared_secret: "${SECRET}"
report_stats: false
macaroon_secret_key: "mac"
form_secret: "form"
signing_key_path: ${dir}/signing.key
trusted_key_servers: []
suppress_key_server_warning: true
rc_message: ${limit}
rc_login: {address: ${limit}, account: ${limit}, failed_attempts: ${limit}}
rc_registration: ${limit}
rc_joins: {local: ${limit}, remote: ${limit}}
rc_invites: {per_room: ${limit}, per_user: ${limit}}
rc_key_requests: ${limit}
`;
  writeFileSync(join(dir, "homeserver.yaml"), config);
  const gen = spawnSync(python, ["-m", "synapse.app.homeserver", "-c", join(dir, "homeserver.yaml"), "--generate-keys"], {
    encoding: "utf8",
  });
  if (gen.status !== 0) throw new Error(`synapse key generation failed: ${gen.stderr}`);
  const child: ChildProcess = spawn(python, ["-m", "synapse.app.homeserver", "-c", join(dir, "homeserver.yaml")], { stdio: "ignore" });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error("synapse exited on start");
    const ok = await fetch(`${baseUrl}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error("synapse did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    serverName: "localhost",
    async registerUser(localpart, opts = {}) {
      const password = opts.password ?? `${localpart}-pw`;
      const { nonce } = (await (await fetch(`${baseUrl}/_synapse/admin/v1/register`)).json()) as { nonce: string };
      const mac = createHmac("sha1", SECRET)
        .update(`${nonce}\0${localpart}\0${password}\0${opts.admin ? "admin" : "notadmin"}`)
        .digest("hex");
      const res = await fetch(`${baseUrl}/_synapse/admin/v1/register`, {
        method: "POST",
        body: JSON.stringify({ nonce, username: localpart, password, admin: !!opts.admin, mac }),
      });
      const body = (await res.json()) as { user_id: string; access_token: string; device_id: string };
      if (!res.ok) throw new Error(JSON.stringify(body));
      return { userId: body.user_id, accessToken: body.access_token, deviceId: body.device_id, password };
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

export interface HumanMessage {
  sender: string;
  body: string;
  content: any;
  eventId: string;
  decrypted: boolean;
  edits: number;
}
export interface MatrixHuman {
  client: MatrixClient;
  createDm(otherUserId: string, opts?: { encrypted?: boolean }): Promise<string>;
  send(roomId: string, text: string): Promise<string>;
  waitForMessage(roomId: string, predicate: (m: HumanMessage) => boolean, timeoutMs?: number): Promise<HumanMessage>;
  stop(): Promise<void>;
}

export async function createMatrixHuman(opts: {
  baseUrl: string;
  userId: string;
  accessToken: string;
  deviceId: string;
  encryption?: boolean;
}): Promise<MatrixHuman> {
  const client = createClient({ baseUrl: opts.baseUrl, userId: opts.userId, accessToken: opts.accessToken, deviceId: opts.deviceId });
  if (opts.encryption) await client.initRustCrypto({ useIndexedDB: false });
  const prepared = new Promise<void>((ok) =>
    client.on(ClientEvent.Sync, (s) => {
      if (s === SyncState.Prepared) ok();
    }),
  );
  await client.startClient({ initialSyncLimit: 10 });
  await prepared;
  const toMessage = (e: MatrixEvent): HumanMessage => ({
    sender: e.getSender() ?? "",
    body: e.getContent().body,
    content: e.getContent(),
    eventId: e.getId() ?? "",
    decrypted: e.isEncrypted() && !e.isDecryptionFailure(),
    edits: 0,
  });
  return {
    client,
    async createDm(other, o = {}) {
      const { room_id } = await client.createRoom({
        is_direct: true,
        invite: [other],
        preset: Preset.TrustedPrivateChat,
        initial_state: o.encrypted ? [{ type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } }] : [],
      });
      while (!client.getRoom(room_id)) await new Promise((r) => setTimeout(r, 50));
      return room_id;
    },
    async send(roomId, text) {
      return (await client.sendTextMessage(roomId, text)).event_id;
    },
    waitForMessage(roomId, predicate, timeoutMs = 30_000) {
      return new Promise((ok, fail) => {
        const check = (e: MatrixEvent): boolean => {
          if (e.getRoomId() !== roomId || e.isBeingDecrypted() || e.getType() !== "m.room.message") return false;
          const m = toMessage(e);
          if (!predicate(m)) return false;
          done();
          ok(m);
          return true;
        };
        const on = (e: MatrixEvent) => void check(e);
        const timer = setTimeout(() => {
          done();
          fail(new Error("human: no matching message"));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          client.off(RoomEvent.Timeline, on);
          client.off(MatrixEventEvent.Decrypted, on);
        };
        client.on(RoomEvent.Timeline, on);
        client.on(MatrixEventEvent.Decrypted, on);
        for (const e of client.getRoom(roomId)?.getLiveTimeline().getEvents() ?? []) if (check(e)) return;
      });
    },
    async stop() {
      client.stopClient();
    },
  };
}
