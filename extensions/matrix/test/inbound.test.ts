import { describe, expect, it } from "vitest";
import { decideAutoJoin, type NormalizeContext, normalizeRoomMessage, type RawRoomEvent } from "../src/index.js";

const bot = { userId: "@claw:example.org", displayName: "Claw", patterns: [/\bhey assistant\b/i] };

function ctx(overrides: Partial<NormalizeContext> = {}): NormalizeContext {
  return {
    channel: "matrix",
    accountId: "default",
    bot,
    isDirect: false,
    senderIsBot: false,
    sentByBot: (id) => id === "$bot-said",
    threadReplies: "inbound",
    ...overrides,
  };
}

function event(content: Record<string, unknown>, overrides: Partial<RawRoomEvent> = {}): RawRoomEvent {
  return {
    event_id: "$e1",
    room_id: "!room:example.org",
    sender: "@alice:example.org",
    type: "m.room.message",
    origin_server_ts: 1_700_000_000_000,
    content,
    ...overrides,
  };
}

describe("mentions in rooms", () => {
  it.each([
    ["m.mentions", { msgtype: "m.text", body: "Claw: hi", "m.mentions": { user_ids: ["@claw:example.org"] } }],
    [
      "a matrix.to pill",
      {
        msgtype: "m.text",
        body: "bot: hi",
        format: "org.matrix.custom.html",
        formatted_body: '<a href="https://matrix.to/#/%40claw%3Aexample.org">bot</a>: hi',
      },
    ],
    ["the display name", { msgtype: "m.text", body: "claw, what time is it" }],
    ["the full user id", { msgtype: "m.text", body: "ask @claw:example.org please" }],
    ["a mentionPattern", { msgtype: "m.text", body: "hey assistant, help" }],
  ])("%s counts as a mention", (_name, content) => {
    expect(normalizeRoomMessage(event(content), ctx())?.mentionsBot).toBe(true);
  });

  it("other text does not, and a word merely containing the name does not", () => {
    expect(normalizeRoomMessage(event({ msgtype: "m.text", body: "hello everyone" }), ctx())?.mentionsBot).toBe(false);
    expect(normalizeRoomMessage(event({ msgtype: "m.text", body: "clawing at the door" }), ctx())?.mentionsBot).toBe(false);
    expect(
      normalizeRoomMessage(event({ msgtype: "m.text", body: "hi", "m.mentions": { user_ids: ["@other:example.org"] } }), ctx())
        ?.mentionsBot,
    ).toBe(false);
  });

  it("a reply to the bot's message counts as a mention; the leading address and reply fallback are stripped", () => {
    const message = normalizeRoomMessage(
      event({
        msgtype: "m.text",
        body: "> <@claw:example.org> earlier answer\n\nClaw: and then?",
        "m.relates_to": { "m.in_reply_to": { event_id: "$bot-said" } },
      }),
      ctx(),
    );
    expect(message).toMatchObject({ mentionsBot: true, text: "and then?", replyTo: { messageId: "$bot-said", fromBot: true } });
  });

  it("a DM is always addressed to the bot", () => {
    expect(normalizeRoomMessage(event({ msgtype: "m.text", body: "hi" }), ctx({ isDirect: true }))).toMatchObject({
      chat: { kind: "direct", id: "!room:example.org" },
      mentionsBot: true,
      text: "hi",
      sender: { id: "@alice:example.org" },
    });
  });
});

describe("threads", () => {
  const threaded = {
    msgtype: "m.text",
    body: "in a thread",
    "m.relates_to": { rel_type: "m.thread", event_id: "$root", is_falling_back: true, "m.in_reply_to": { event_id: "$last" } },
  };

  it("a message in a thread is its own thread session; the reply fallback is not a reply", () => {
    const message = normalizeRoomMessage(event(threaded), ctx({ isDirect: true }));
    expect(message?.chat).toEqual({ kind: "direct", id: "!room:example.org", threadId: "$root", threadKind: "thread" });
    expect(message?.replyTo).toBeUndefined();
  });

  it('threadReplies "always" opens a thread on a room message; "off" answers in the room', () => {
    expect(normalizeRoomMessage(event({ msgtype: "m.text", body: "Claw hi" }), ctx({ threadReplies: "always" }))?.chat.threadId).toBe(
      "$e1",
    );
    expect(normalizeRoomMessage(event(threaded), ctx({ threadReplies: "off" }))?.chat.threadId).toBeUndefined();
  });
});

describe("what is not a new message", () => {
  it("edits, state-like events, empty bodies and malformed content are skipped", () => {
    expect(
      normalizeRoomMessage(event({ msgtype: "m.text", body: "* fixed", "m.relates_to": { rel_type: "m.replace", event_id: "$x" } }), ctx()),
    ).toBeUndefined();
    expect(normalizeRoomMessage(event({ body: "x" }, { type: "m.reaction" }), ctx())).toBeUndefined();
    expect(normalizeRoomMessage(event({ msgtype: "m.text", body: "   " }), ctx())).toBeUndefined();
    expect(normalizeRoomMessage(event({ msgtype: 42, body: null }), ctx())).toBeUndefined();
    expect(normalizeRoomMessage(event({ msgtype: "m.image" }), ctx())).toBeUndefined();
  });
});

describe("media", () => {
  it("an image keeps its mxc URI as fileId; an encrypted file reads the url of its file object", () => {
    const image = normalizeRoomMessage(
      event({ msgtype: "m.image", body: "cat.png", url: "mxc://example.org/abc", info: { mimetype: "image/png", size: 10 } }),
      ctx({ isDirect: true }),
    );
    expect(image).toMatchObject({
      text: "",
      media: [{ kind: "image", fileId: "mxc://example.org/abc", mimeType: "image/png", size: 10, fileName: "cat.png" }],
    });
    const file = normalizeRoomMessage(
      event({ msgtype: "m.file", body: "see this", filename: "r.pdf", file: { url: "mxc://example.org/enc" } }),
      ctx({ isDirect: true }),
    );
    expect(file).toMatchObject({ text: "see this", media: [{ kind: "document", fileId: "mxc://example.org/enc", fileName: "r.pdf" }] });
  });
});

describe("autoJoin", () => {
  const invite = { roomId: "!r:example.org", aliases: ["#ops:example.org"], inviter: "@boss:example.org" };
  it("off by default, always joins everything, allowlist matches the room, an alias or the inviter", () => {
    expect(decideAutoJoin(invite, { autoJoin: "off", autoJoinAllowlist: ["*"] }).join).toBe(false);
    expect(decideAutoJoin(invite, { autoJoin: "always", autoJoinAllowlist: [] }).join).toBe(true);
    for (const entry of ["!r:example.org", "#OPS:example.org", "@boss:example.org", "*"]) {
      expect(decideAutoJoin(invite, { autoJoin: "allowlist", autoJoinAllowlist: [entry] }).join).toBe(true);
    }
    const stranger = decideAutoJoin(
      { ...invite, inviter: "@spam:evil.org" },
      { autoJoin: "allowlist", autoJoinAllowlist: ["@boss:example.org"] },
    );
    expect(stranger).toMatchObject({ join: false });
  });
});
