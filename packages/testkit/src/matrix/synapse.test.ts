// The Synapse harness itself: users registered through the shared-secret API, and two
// Element-like humans exchanging an encrypted DM (text, edit, redaction, encrypted image).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMatrixHuman, type MatrixHuman, type Synapse, startSynapse, synapseInstalled } from "./index.js";

describe.skipIf(!synapseInstalled())("startSynapse + createMatrixHuman", () => {
  let synapse: Synapse;
  let alice: MatrixHuman;
  let bob: MatrixHuman;

  beforeAll(async () => {
    synapse = await startSynapse();
    const [a, b] = await Promise.all([synapse.registerUser("alice", { displayName: "Alice" }), synapse.registerUser("bob")]);
    [alice, bob] = await Promise.all([
      createMatrixHuman({ baseUrl: synapse.baseUrl, ...a! }),
      createMatrixHuman({ baseUrl: synapse.baseUrl, ...b! }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([alice?.stop(), bob?.stop()]);
    await synapse?.stop();
  });

  it("registers users through the shared-secret admin API, each with a working device", async () => {
    expect(synapse.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${synapse.baseUrl}/_matrix/client/v3/account/whoami`, {
      headers: { authorization: `Bearer ${alice.client.getAccessToken() ?? ""}` },
    });
    expect(await res.json()).toMatchObject({ user_id: "@alice:localhost", device_id: alice.client.getDeviceId() });
    await expect(synapse.registerUser("alice")).rejects.toThrow(/M_USER_IN_USE/);
    const again = await synapse.login("@bob:localhost", "bob-password");
    expect(again.deviceId).not.toBe(bob.client.getDeviceId());
  });

  it("delivers an encrypted DM that the other human decrypts, with edits and redactions applied", async () => {
    const roomId = await alice.createDm("@bob:localhost");
    expect(alice.client.getAccountData("m.direct" as never)?.getContent()).toEqual({ "@bob:localhost": [roomId] });
    await bob.waitForInvite((room) => room.roomId === roomId);
    await bob.join(roomId);

    const first = await alice.send(roomId, "hello bob");
    const seen = await bob.waitForMessage(roomId, (m) => m.eventId === first && m.decrypted);
    expect(seen).toMatchObject({ sender: "@alice:localhost", body: "hello bob", encrypted: true, undecryptable: false });
    // On the wire the event is encrypted: the server never sees the text.
    const raw = await fetch(`${synapse.baseUrl}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/event/${encodeURIComponent(first)}`, {
      headers: { authorization: `Bearer ${bob.client.getAccessToken()}` },
    }).then((r) => r.json() as Promise<{ type: string }>);
    expect(raw.type).toBe("m.room.encrypted");
    expect(JSON.stringify(raw)).not.toContain("hello bob");

    const second = await alice.send(roomId, "typo");
    await alice.client.sendEvent(
      roomId,
      "m.room.message" as never,
      {
        msgtype: "m.text",
        body: "* fixed",
        "m.new_content": { msgtype: "m.text", body: "fixed" },
        "m.relates_to": { rel_type: "m.replace", event_id: second },
      } as never,
    );
    await bob.waitForMessage(roomId, (m) => m.eventId === second && m.edits === 1);
    const gone = await alice.send(roomId, "secret");
    await bob.waitForMessage(roomId, (m) => m.eventId === gone);
    await alice.client.redactEvent(roomId, gone);
    await bob.waitForMessage(roomId, (m) => m.eventId === gone && m.redacted);
    expect(bob.visibleText(roomId)).toBe("hello bob\nfixed");

    const reply = await bob.send(roomId, "hi alice", { replyTo: first });
    expect(await alice.waitForMessage(roomId, (m) => m.eventId === reply && m.decrypted)).toMatchObject({ replyTo: first });
  });

  it("sends encrypted media in an encrypted room, which the other human downloads and decrypts", async () => {
    const roomId = await alice.createDm("@bob:localhost");
    await bob.waitForInvite((room) => room.roomId === roomId);
    await bob.join(roomId);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const eventId = await alice.sendImage(roomId, png, "dot.png");
    const image = await bob.waitForMessage(roomId, (m) => m.eventId === eventId && m.decrypted);
    expect(image.msgtype).toBe("m.image");
    expect(image.content.url).toBeUndefined();
    expect(image.content.file.url).toMatch(/^mxc:\/\/localhost\//);
    expect(await bob.downloadMedia(image.content)).toEqual(png);
  });

  it("keeps thread messages with their root, and mentions as m.mentions plus a pill", async () => {
    const roomId = await alice.createRoom({ name: "group", invite: ["@bob:localhost"] });
    await bob.join(roomId);
    const root = await alice.send(roomId, "root");
    const inThread = await bob.send(roomId, "in thread", { threadRootId: root, mentions: ["@alice:localhost"] });
    const seen = await alice.waitForMessage(roomId, (m) => m.eventId === inThread);
    expect(seen).toMatchObject({ threadRootId: root, encrypted: false });
    expect(seen.content["m.mentions"]).toEqual({ user_ids: ["@alice:localhost"] });
    expect(seen.formattedBody).toContain('href="https://matrix.to/#/@alice:localhost"');
  });
});
