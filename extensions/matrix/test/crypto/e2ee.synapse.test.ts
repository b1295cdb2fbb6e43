/**
 * End-to-end encryption against a real Synapse: a fresh Element-like human (matrix-js-sdk with
 * Rust crypto) and the bot's client built the way the plugin builds it.
 */
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MatrixEvent } from "matrix-js-sdk";
import { MatrixEvent as MatrixEventClass } from "matrix-js-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMatrixHuman, type MatrixHuman, type Synapse, startSynapse, synapseInstalled } from "@openclaw/testkit/matrix";
import { decryptAttachment, encryptAttachment } from "../../src/crypto/index.js";
import { type Bot, type Credentials, eventually, startBot, tempDir } from "./helpers.js";

// Under CI (`CI` set) a missing Synapse fails the run; locally the suite is skipped with a warning
// that names scripts/install-synapse.sh.
describe.skipIf(!synapseInstalled())("Matrix end-to-end encryption (Synapse)", () => {
  let server: Synapse;
  const dir = tempDir("mx-crypto-");
  let botCredentials: Credentials;
  let human: MatrixHuman;
  let bot: Bot;
  let roomId: string;
  let firstEventId: string;

  beforeAll(async () => {
    server = await startSynapse();
    const botUser = await server.registerUser("bot", { password: "bot-password-1" });
    botCredentials = botUser;
    const humanUser = await server.registerUser("alice", { password: "alice-password-1" });
    human = await createMatrixHuman({ baseUrl: server.baseUrl, ...humanUser, encryption: true });
    bot = await startBot({ baseUrl: server.baseUrl, dir, credentials: botCredentials });
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await human?.stop();
    await server?.stop();
  });

  it("cross-signs the device, sets up secret storage and a backup, and prints the recovery key once", async () => {
    expect(bot.e2ee.status()).toEqual({
      deviceId: botCredentials.deviceId,
      verified: true,
      crossSigning: true,
      backup: true,
    });
    const printed = bot.log.filter((line) => line.message.startsWith("Matrix recovery key for @bot:"));
    expect(printed).toHaveLength(1);
    const recoveryKey = (await readFile(join(dir, "recovery-key"), "utf8")).trim();
    expect(printed[0]?.message).toContain(recoveryKey);
    expect(statSync(join(dir, "recovery-key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "indexeddb.v8")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(bot.store.deviceId).toBe(botCredentials.deviceId);
  });

  it("decrypts an encrypted DM from a fresh human, whose client decrypts the bot's encrypted reply", async () => {
    roomId = await human.createDm(botCredentials.userId, { encrypted: true });
    await eventually(async () => bot.client.getRoom(roomId)?.getMyMembership() === "join", "the bot to join");
    firstEventId = await human.send(roomId, "hello bot, this is secret");
    const received = await bot.waitForMessage(roomId, (body) => body === "hello bot, this is secret");
    expect(received.getId()).toBe(firstEventId);
    expect(received.isEncrypted()).toBe(true);

    await bot.client.sendTextMessage(roomId, "hello human, also secret");
    const reply = await human.waitForMessage(roomId, (m) => m.body === "hello human, also secret");
    expect(reply.decrypted).toBe(true);
    expect(reply.sender).toBe(botCredentials.userId);
  });

  it("exchanges encrypted media both ways: the human's image decrypts here, the bot's file decrypts there", async () => {
    const picture = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 0xff);
    const imageId = await human.sendImage(roomId, picture, "dots.png");
    const image = await bot.waitForMessage(roomId, (_body, event) => event.getId() === imageId);
    const file = image.getContent().file;
    expect(image.getContent().url).toBeUndefined();
    const download = await fetch(mediaUrl(server.baseUrl, file.url), {
      headers: { authorization: `Bearer ${botCredentials.accessToken}` },
    });
    const fetched = new Uint8Array(await download.arrayBuffer());
    expect(Buffer.from(fetched).equals(Buffer.from(picture))).toBe(false);
    expect(Buffer.from(decryptAttachment(fetched, file)).equals(Buffer.from(picture))).toBe(true);

    const report = new TextEncoder().encode("quarterly numbers, encrypted");
    const { data, file: sent } = encryptAttachment(report);
    const { content_uri: url } = await bot.client.uploadContent(data, { type: "application/octet-stream" });
    await bot.client.sendMessage(roomId, {
      msgtype: "m.file",
      body: "report.txt",
      info: { mimetype: "text/plain", size: report.byteLength },
      file: { ...sent, url },
    } as never);
    const arrived = await human.waitForMessage(roomId, (m) => m.body === "report.txt");
    expect(arrived.decrypted).toBe(true);
    expect((await human.downloadMedia(arrived.content)).toString("utf8")).toBe("quarterly numbers, encrypted");
  });

  it("after a restart keeps its device and keys: old-session, missed and new messages decrypt; replies decrypt", async () => {
    const keysBefore = await bot.client.getCrypto()?.getOwnDeviceKeys();
    await bot.stop();
    // Sent on the existing Megolm session while the bot is down.
    await human.send(roomId, "sent while you were away");

    bot = await startBot({ baseUrl: server.baseUrl, dir, credentials: botCredentials });
    expect(bot.store.deviceId).toBe(botCredentials.deviceId);
    expect(await bot.client.getCrypto()?.getOwnDeviceKeys()).toEqual(keysBefore);
    expect(bot.log.some((line) => line.message.startsWith("Matrix recovery key"))).toBe(false);
    expect(bot.e2ee.status()).toMatchObject({ verified: true, crossSigning: true, backup: true });

    await bot.waitForMessage(roomId, (body) => body === "sent while you were away");
    const older = new MatrixEventClass(await bot.client.fetchRoomEvent(roomId, firstEventId));
    await bot.client.decryptEventIfNeeded(older);
    expect(older.getContent().body).toBe("hello bot, this is secret");

    await human.send(roomId, "are you back?");
    await bot.waitForMessage(roomId, (body) => body === "are you back?");
    await bot.client.sendTextMessage(roomId, "yes, same device");
    const reply = await human.waitForMessage(roomId, (m) => m.body === "yes, same device");
    expect(reply.decrypted).toBe(true);
  });

  it("reports an undecryptable message once, then hands it over decrypted when its key arrives", async () => {
    const undecryptable: MatrixEvent[] = [];
    const decrypted: MatrixEvent[] = [];
    const stop = bot.e2ee.watch({
      undecryptable: (event) => undecryptable.push(event),
      decrypted: (event) => decrypted.push(event),
    });
    const held = withholdRoomKeys(human);
    await human.client.getCrypto()?.forceDiscardSession(roomId);
    const lateId = await human.send(roomId, "my key comes late");
    await eventually(async () => undecryptable.length > 0, "the undecryptable report");
    expect(undecryptable.map((event) => event.getId())).toEqual([lateId]);
    expect(decrypted).toEqual([]);

    await held.release();
    await eventually(async () => decrypted.length > 0, "the decrypted hand-over");
    expect(decrypted.map((event) => [event.getId(), event.getContent().body])).toEqual([[lateId, "my key comes late"]]);

    // Later traffic (another key, another message) does not report either event again.
    await human.client.getCrypto()?.forceDiscardSession(roomId);
    await human.send(roomId, "and this one is on time");
    await bot.waitForMessage(roomId, (body) => body === "and this one is on time");
    expect(undecryptable.map((event) => event.getId())).toEqual([lateId]);
    expect(decrypted.map((event) => event.getId())).toEqual([lateId]);
    stop();
  });

  it("restores keys from the server-side backup into a fresh store with the recovery key", async () => {
    const backupVersion = await bot.client.getCrypto()?.getActiveSessionBackupVersion();
    expect(backupVersion).toBeTruthy();
    const firstSession = (await bot.client.fetchRoomEvent(roomId, firstEventId)).content?.session_id as string;
    await eventually(
      async () =>
        backedUpSessions(server.baseUrl, botCredentials.accessToken, backupVersion as string, roomId).then((ids) =>
          ids.includes(firstSession),
        ),
      "the first message's key in the backup",
    );

    const recoveryKey = (await readFile(join(dir, "recovery-key"), "utf8")).trim();
    const lostStoreDir = tempDir("mx-crypto-lost-");
    const newDevice = await server.login(botCredentials.userId, botCredentials.password);
    const restored = await startBot({ baseUrl: server.baseUrl, dir: lostStoreDir, credentials: newDevice, recoveryKey, sync: false });
    try {
      expect(restored.e2ee.status()).toEqual({ deviceId: newDevice.deviceId, verified: true, crossSigning: true, backup: true });
      expect(restored.log.some((line) => line.message.startsWith("Matrix recovery key"))).toBe(false);
      expect(restored.log.some((line) => line.message.startsWith("Matrix: restored message keys"))).toBe(true);
      expect(await restored.client.getCrypto()?.getOwnDeviceKeys()).not.toEqual(await bot.client.getCrypto()?.getOwnDeviceKeys());
      const older = new MatrixEventClass(await restored.client.fetchRoomEvent(roomId, firstEventId));
      await restored.client.decryptEventIfNeeded(older);
      expect(older.isDecryptionFailure()).toBe(false);
      expect(older.getContent().body).toBe("hello bot, this is secret");
    } finally {
      await restored.stop();
    }

    // The first bot, sharing the process, still has its own store.
    await human.send(roomId, "still there?");
    await bot.waitForMessage(roomId, (body) => body === "still there?");
  });

  it("leaves an account's existing secret storage alone without its recovery key, and says where to put it", async () => {
    const newDevice = await server.login(botCredentials.userId, botCredentials.password);
    const noKeyDir = tempDir("mx-crypto-nokey-");
    const keysBefore = await bot.client.getCrypto()?.getCrossSigningKeyId();
    const stranger = await startBot({ baseUrl: server.baseUrl, dir: noKeyDir, credentials: newDevice, sync: false });
    try {
      expect(stranger.e2ee.status()).toEqual({ deviceId: newDevice.deviceId, verified: false, crossSigning: false, backup: false });
      const warnings = stranger.log.filter((line) => line.level === "warn").map((line) => line.message);
      expect(warnings.some((m) => m.includes(`write it to ${join(noKeyDir, "recovery-key")}`))).toBe(true);
      expect(warnings.some((m) => m.startsWith("Matrix recovery key"))).toBe(false);
    } finally {
      await stranger.stop();
    }
    // The account's identity is unchanged: the first device is still cross-signed by the same key.
    expect(await bot.client.getCrypto()?.getCrossSigningKeyId()).toBe(keysBefore);
    expect(await bot.client.getCrypto()?.isCrossSigningReady()).toBe(true);
  });

  it("refuses a client whose access token belongs to another device than the store", async () => {
    const otherDevice = await server.login(botCredentials.userId, botCredentials.password);
    // The store in `dir` belongs to the first device; its id wins, and the token does not match it.
    await expect(startBot({ baseUrl: server.baseUrl, dir, credentials: otherDevice, sync: false })).rejects.toThrow(
      new RegExp(`belongs to device ${otherDevice.deviceId}, but the crypto store in ${dir} holds device ${botCredentials.deviceId}`),
    );
  });
});

/** Holds the human's to-device room-key messages until `release()` sends them on. */
function withholdRoomKeys(human: MatrixHuman): { release(): Promise<void> } {
  type AuthedRequest = (...args: unknown[]) => Promise<unknown>;
  const http = human.client.http as unknown as { authedRequest: AuthedRequest };
  const original = http.authedRequest;
  const held: unknown[][] = [];
  http.authedRequest = async (...args: unknown[]) => {
    const path = String(args[1]);
    if (args[0] === "PUT" && path.includes("/sendToDevice/m.room.encrypted/")) {
      held.push(args);
      return "{}";
    }
    return original.apply(http, args);
  };
  return {
    async release() {
      http.authedRequest = original;
      expect(held.length).toBeGreaterThan(0);
      for (const args of held) await original.apply(http, args);
    },
  };
}

function mediaUrl(baseUrl: string, mxc: string): string {
  return `${baseUrl}/_matrix/client/v1/media/download/${mxc.replace(/^mxc:\/\//, "")}`;
}

async function backedUpSessions(baseUrl: string, token: string, version: string, roomId: string): Promise<string[]> {
  const response = await fetch(
    `${baseUrl}/_matrix/client/v3/room_keys/keys/${encodeURIComponent(roomId)}?version=${encodeURIComponent(version)}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  if (!response.ok) return [];
  const body = (await response.json()) as { sessions?: Record<string, unknown> };
  return Object.keys(body.sessions ?? {});
}
