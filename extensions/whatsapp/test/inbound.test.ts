import { describe, expect, it } from "vitest";
import { linkedDir, setup, startAccount, until } from "./helpers.js";

const ALICE = "+4915112345678";
const GROUP = "120363041234567890@g.us";

async function running(channel: Record<string, unknown> = {}) {
  const { fake, plugin } = setup();
  const dir = await linkedDir(fake, plugin);
  const account = await startAccount(plugin, dir, channel);
  return { fake, account };
}

describe("inbound messages", () => {
  it("DMs arrive with the sender in E.164, in order, and are marked read", async () => {
    const { fake, account } = await running();
    const ids = ["one", "two", "three"].map((text) => fake.phone.userSends({ from: ALICE, text, pushName: "Alice" }));
    const last = await account.waitForInbound((m) => m.text === "three");
    expect(account.ctx.received.map((m) => m.text)).toEqual(["one", "two", "three"]);
    expect(last).toMatchObject({
      channel: "whatsapp",
      chat: { kind: "direct", id: ALICE },
      sender: { id: ALICE, name: "Alice" },
      mentionsBot: true,
      messageId: ids[2],
    });
    await until(() => fake.phone.readReceipts.length === 3);
    expect(fake.phone.readReceipts.map((k) => k.id)).toEqual(ids);
    await account.stop();
  });

  it("sendReadReceipts: false marks nothing read", async () => {
    const { fake, account } = await running({ sendReadReceipts: false });
    fake.phone.userSends({ from: ALICE, text: "psst" });
    await account.waitForInbound((m) => m.text === "psst");
    expect(fake.phone.readReceipts).toEqual([]);
    await account.stop();
  });

  it("captions, quoted replies and media placeholders whose file can be fetched", async () => {
    const { fake, account } = await running();
    const photo = Buffer.from("fake-jpeg-bytes");
    const id = fake.phone.userSends({ from: ALICE, media: { kind: "image", data: photo, caption: "look at this" } });
    const withPhoto = await account.waitForInbound((m) => m.messageId === id);
    expect(withPhoto.text).toBe("look at this");
    expect(withPhoto.media).toEqual([{ kind: "image", fileId: id, mimeType: "image/jpeg", size: photo.length }]);
    await expect(account.session.downloadMedia(id)).resolves.toEqual(photo);

    const voice = fake.phone.userSends({ from: ALICE, media: { kind: "voice", data: Buffer.from("ogg") } });
    const note = await account.waitForInbound((m) => m.messageId === voice);
    expect(note.text).toBe("");
    expect(note.media?.[0]?.kind).toBe("voice");

    const quoted = fake.phone.userSends({ from: ALICE, text: "and this?", quoted: { id, text: "look at this" } });
    const reply = await account.waitForInbound((m) => m.messageId === quoted);
    expect(reply.replyTo).toEqual({ messageId: id, fromBot: false, text: "look at this" });
    await account.stop();
  });

  it("ignores status broadcasts, newsletters, other notify types and the linked number's own messages", async () => {
    const { fake, account } = await running();
    fake.phone.userSends({ from: ALICE, text: "status", to: "status@broadcast" });
    fake.phone.userSends({ from: ALICE, text: "news", to: "120363123456789012@newsletter" });
    fake.phone.userSends({ from: fake.phone.number, fromMe: true, text: "I wrote this on my phone", to: "4915112345678@s.whatsapp.net" });
    fake.phone.userSends({ from: fake.phone.number, fromMe: true, text: "note to self" });
    fake.phone.rawUpsert({
      type: "append",
      messages: [{ key: { remoteJid: "4915112345678@s.whatsapp.net", id: "OLD1" }, message: { conversation: "history" } }],
    });
    fake.phone.rawUpsert({
      type: "notify",
      messages: [{ key: {} }, null, { key: { remoteJid: "x@s.whatsapp.net", id: "P1" }, message: { protocolMessage: {} } }],
    });
    fake.phone.userSends({ from: ALICE, text: "real" });
    await account.waitForInbound((m) => m.text === "real");
    expect(account.ctx.received.map((m) => m.text)).toEqual(["real"]);
    await account.stop();
  });

  it("selfChatMode answers the self-chat, but never the bot's own replies there", async () => {
    const { fake, account } = await running({ selfChatMode: true });
    fake.phone.userSends({ from: fake.phone.number, fromMe: true, text: "remind me" });
    const m = await account.waitForInbound((x) => x.text === "remind me");
    expect(m.chat).toEqual({ kind: "direct", id: fake.phone.number });
    await account.session.sendText({ chat: m.chat }, "sure", {
      signal: new AbortController().signal,
      priority: "final",
      format: "plain",
      idempotencyKey: "self-1",
    });
    const sent = fake.phone.sent(fake.phone.number);
    fake.phone.rawUpsert({
      type: "notify",
      messages: [{ key: { remoteJid: sent[0]!.jid, fromMe: true, id: sent[0]!.id }, message: { conversation: "sure" } }],
    });
    fake.phone.userSends({ from: fake.phone.number, fromMe: true, text: "thanks" });
    await account.waitForInbound((x) => x.text === "thanks");
    expect(account.ctx.received.map((x) => x.text)).toEqual(["remind me", "thanks"]);
    expect(fake.phone.readReceipts).toEqual([]); // never in the self-chat
    await account.stop();
  });

  it("groups are keyed by JID; mentions of the linked number and replies to the bot count as mentions", async () => {
    const { fake, account } = await running();
    fake.phone.userSends({ from: ALICE, group: GROUP, text: "chatting among ourselves" });
    fake.phone.userSends({ from: ALICE, group: GROUP, text: "@15550001111 what time is it?", mentions: [fake.phone.number] });
    const plain = await account.waitForInbound((m) => m.text === "chatting among ourselves");
    const mention = await account.waitForInbound((m) => m.text.startsWith("@15550001111"));
    expect(plain).toMatchObject({ chat: { kind: "group", id: GROUP }, sender: { id: ALICE }, mentionsBot: false });
    expect(mention.mentionsBot).toBe(true);
    const sent = await account.session.sendText({ chat: mention.chat }, "noon", {
      signal: new AbortController().signal,
      priority: "final",
      format: "plain",
      idempotencyKey: "g-1",
    });
    fake.phone.userSends({ from: "+4917600000001", group: GROUP, text: "thanks", quoted: { id: sent.messageId } });
    const reply = await account.waitForInbound((m) => m.text === "thanks");
    expect(reply.mentionsBot).toBe(true);
    expect(reply.replyTo).toMatchObject({ messageId: sent.messageId, fromBot: true, text: "noon" });
    await account.stop();
  });

  it("a LID sender is mapped to the number WhatsApp shared for it", async () => {
    const { fake, account } = await running();
    fake.phone.userSends({ from: "98765432101234@lid", text: "who am I?" });
    const unmapped = await account.waitForInbound((m) => m.text === "who am I?");
    expect(unmapped.sender.id).toBe("98765432101234@lid");
    fake.phone.shareNumber("98765432101234@lid", ALICE);
    fake.phone.userSends({ from: "98765432101234@lid", text: "and now?" });
    const mapped = await account.waitForInbound((m) => m.text === "and now?");
    expect(mapped.sender.id).toBe(ALICE);
    expect(mapped.chat.id).toBe(ALICE);
    await account.stop();
  });
});
