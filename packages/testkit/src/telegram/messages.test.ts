import { afterEach, describe, expect, it } from "vitest";
import { fakeTelegramError, startFakeTelegram, type FakeTelegram } from "../index.js";
import { api } from "./__fixtures__/http.js";

const fakes: FakeTelegram[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function open(options?: Parameters<typeof startFakeTelegram>[0]): Promise<FakeTelegram> {
  const fake = await startFakeTelegram(options);
  fakes.push(fake);
  return fake;
}

describe("fake Telegram: send, edit, delete", () => {
  it("shows the chat as the user sees it: current text after edits, deleted messages gone", async () => {
    const fake = await open();
    const first = (await api(fake, "sendMessage", { chat_id: 42, text: "thinking…" })).body.result;
    const second = (await api(fake, "sendMessage", { chat_id: 42, text: "<b>bold</b> and <i>italic</i>", parse_mode: "HTML" })).body.result;
    expect(second).toMatchObject({
      chat: { id: 42 },
      from: { is_bot: true, username: "fake_test_bot" },
      text: "bold and italic",
      entities: [
        { type: "bold", offset: 0, length: 4 },
        { type: "italic", offset: 9, length: 6 },
      ],
    });
    const edited = await api(fake, "editMessageText", { chat_id: 42, message_id: first.message_id, text: "thinking… done" });
    expect(edited.body.result).toMatchObject({ message_id: first.message_id, text: "thinking… done", edit_date: expect.any(Number) });
    expect(fake.chat(42).map((m) => m.text)).toEqual(["thinking… done", "bold and italic"]);
    expect(fake.editsOf(first.message_id).map((v) => [v.method, v.text])).toEqual([
      ["sendMessage", "thinking…"],
      ["editMessageText", "thinking… done"],
    ]);

    expect((await api(fake, "deleteMessage", { chat_id: 42, message_id: second.message_id })).body).toEqual({ ok: true, result: true });
    expect(fake.chat(42).map((m) => m.message_id)).toEqual([first.message_id]);
    expect(fake.wasDeleted(second.message_id)).toBe(true);
    expect(fake.sentMessages()).toHaveLength(2);
    expect((await api(fake, "deleteMessage", { chat_id: 42, message_id: second.message_id })).body.description).toBe(
      "Bad Request: message to delete not found",
    );
  });

  it("refuses identical edits, missing targets and over-long text as Telegram does", async () => {
    const fake = await open();
    const sent = (await api(fake, "sendMessage", { chat_id: 7, text: "same" })).body.result;
    const same = await api(fake, "editMessageText", { chat_id: 7, message_id: sent.message_id, text: "same" });
    expect(same.status).toBe(400);
    expect(same.body.description).toMatch(/^Bad Request: message is not modified/);
    expect((await api(fake, "editMessageText", { chat_id: 7, message_id: 9999, text: "x" })).body).toEqual({
      ok: false,
      error_code: 400,
      description: "Bad Request: message to edit not found",
    });
    const long = "x".repeat(4097);
    expect((await api(fake, "editMessageText", { chat_id: 7, message_id: sent.message_id, text: long })).body.description).toBe(
      "Bad Request: MESSAGE_TOO_LONG",
    );
    expect((await api(fake, "sendMessage", { chat_id: 7, text: long })).body.description).toBe("Bad Request: message is too long");
    // The limit applies to the visible text: markup does not count.
    expect((await api(fake, "sendMessage", { chat_id: 7, text: `<b>${"x".repeat(4096)}</b>`, parse_mode: "HTML" })).body.ok).toBe(true);
    expect((await api(fake, "sendMessage", { chat_id: 7, text: "   " })).body.description).toBe("Bad Request: message text is empty");
  });

  it("rejects unbalanced or unknown HTML with a can't-parse-entities error", async () => {
    const fake = await open();
    const unclosed = await api(fake, "sendMessage", { chat_id: 1, text: "<b>bold <i>both</b></i>", parse_mode: "HTML" });
    expect(unclosed).toEqual({
      status: 400,
      body: {
        ok: false,
        error_code: 400,
        description: 'Bad Request: can\'t parse entities: Unmatched end tag at byte offset 15, expected "</i>", found "</b>"',
      },
    });
    expect((await api(fake, "sendMessage", { chat_id: 1, text: "<b>open", parse_mode: "HTML" })).body.description).toBe(
      "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    );
    expect((await api(fake, "sendMessage", { chat_id: 1, text: "a <div>b</div>", parse_mode: "HTML" })).body.description).toBe(
      'Bad Request: can\'t parse entities: Unsupported start tag "div" at byte offset 2',
    );
    const ok = await api(fake, "sendMessage", {
      chat_id: 1,
      text: '1 &lt; 2 &amp; <a href="https://x.example">link</a> <pre><code class="language-ts">let a;</code></pre>',
      parse_mode: "HTML",
    });
    expect(ok.body.result.text).toBe("1 < 2 & link let a;");
    expect(ok.body.result.entities).toEqual([
      { type: "text_link", offset: 8, length: 4, url: "https://x.example" },
      { type: "pre", offset: 13, length: 6, language: "ts" },
    ]);
    expect(fake.chat(1)).toHaveLength(1);
  });

  it("checks MarkdownV2 reserved characters and entity ends", async () => {
    const fake = await open();
    expect((await api(fake, "sendMessage", { chat_id: 1, text: "Done.", parse_mode: "MarkdownV2" })).body.description).toBe(
      "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    expect((await api(fake, "sendMessage", { chat_id: 1, text: "*bold", parse_mode: "MarkdownV2" })).body.description).toBe(
      "Bad Request: can't parse entities: Can't find end of Bold entity at byte offset 0",
    );
    const ok = await api(fake, "sendMessage", { chat_id: 1, text: "*bold* `code` Done\\.", parse_mode: "MarkdownV2" });
    expect(ok.body.result).toMatchObject({
      text: "bold code Done.",
      entities: [
        { type: "bold", offset: 0, length: 4 },
        { type: "code", offset: 5, length: 4 },
      ],
    });
  });

  it("resolves replies and forum threads, with Telegram's errors when they do not exist", async () => {
    const fake = await open();
    const forum = { chat: { id: -1001, type: "supergroup" as const, title: "Team", is_forum: true }, from: { id: 5, first_name: "Bo" } };
    const asked = fake.sendUserMessage({ ...forum, text: "question", message_thread_id: 77 });
    expect(asked.message).toMatchObject({ message_thread_id: 77, is_topic_message: true, chat: { title: "Team", is_forum: true } });
    const reply = await api(fake, "sendMessage", {
      chat_id: -1001,
      text: "answer",
      message_thread_id: 77,
      reply_parameters: { message_id: asked.message!.message_id, quote: "quest" },
      link_preview_options: { is_disabled: true },
      disable_notification: true,
    });
    expect(reply.body.result).toMatchObject({
      message_thread_id: 77,
      reply_to_message: { message_id: asked.message!.message_id, text: "question" },
      quote: { text: "quest", position: 0 },
      link_preview_options: { is_disabled: true },
    });
    expect((await api(fake, "sendMessage", { chat_id: -1001, text: "x", message_thread_id: 99 })).body.description).toBe(
      "Bad Request: message thread not found",
    );
    // The General topic is addressed without a thread id, except for chat actions.
    expect((await api(fake, "sendMessage", { chat_id: -1001, text: "x", message_thread_id: 1 })).body.description).toBe(
      "Bad Request: message thread not found",
    );
    expect((await api(fake, "sendChatAction", { chat_id: -1001, action: "typing", message_thread_id: 1 })).body.result).toBe(true);
    expect((await api(fake, "sendMessage", { chat_id: -1001, text: "x", reply_to_message_id: 12345 })).body.description).toBe(
      "Bad Request: message to be replied not found",
    );
    const lenient = await api(fake, "sendMessage", {
      chat_id: -1001,
      text: "x",
      reply_parameters: { message_id: 12345, allow_sending_without_reply: true },
    });
    expect(lenient.body.ok).toBe(true);
    expect(lenient.body.result.reply_to_message).toBeUndefined();
  });

  it("accepts commands, callback answers and chat actions", async () => {
    const fake = await open();
    const commands = [{ command: "status", description: "Show status" }];
    expect((await api(fake, "setMyCommands", { commands })).body.result).toBe(true);
    expect((await api(fake, "getMyCommands")).body.result).toEqual(commands);
    expect((await api(fake, "setMyCommands", { commands: [{ command: "Bad-Name", description: "x" }] })).body.description).toBe(
      "Bad Request: BOT_COMMAND_INVALID",
    );
    expect((await api(fake, "answerCallbackQuery", { callback_query_id: "abc", text: "ok" })).body.result).toBe(true);
    expect((await api(fake, "sendChatAction", { chat_id: 42, action: "dancing" })).body.description).toBe(
      "Bad Request: wrong parameter action in request",
    );
  });

  it("refuses unknown chats when asked to", async () => {
    const fake = await open({ rejectUnknownChats: true });
    expect((await api(fake, "sendMessage", { chat_id: 5, text: "hi" })).body.description).toBe("Bad Request: chat not found");
    fake.sendUserMessage({ chat: { id: 5, type: "private" }, from: { id: 5, first_name: "Cy" }, text: "hello" });
    expect((await api(fake, "sendMessage", { chat_id: 5, text: "hi" })).body.ok).toBe(true);
  });

  it("runs custom handlers for methods the fake lacks, until reset", async () => {
    const fake = await open();
    fake.handle("getChatMemberCount", (params) => {
      if (params.chat_id === 0) throw fakeTelegramError(400, "Bad Request: chat not found");
      return 12;
    });
    expect((await api(fake, "getChatMemberCount", { chat_id: -5 })).body).toEqual({ ok: true, result: 12 });
    expect((await api(fake, "getChatMemberCount", { chat_id: 0 })).body.description).toBe("Bad Request: chat not found");
    fake.reset();
    expect((await api(fake, "getChatMemberCount", { chat_id: -5 })).status).toBe(404);
  });

  it("sends albums and edits captions", async () => {
    const fake = await open();
    const photo = (await api(fake, "sendPhoto", { chat_id: 8, photo: "https://img.example/a.jpg", caption: "first" })).body.result;
    const fileId = photo.photo[0].file_id;
    const album = await api(fake, "sendMediaGroup", {
      chat_id: 8,
      media: [
        { type: "photo", media: fileId, caption: "one" },
        { type: "photo", media: fileId },
      ],
    });
    expect(album.body.result).toHaveLength(2);
    expect(album.body.result[0].media_group_id).toBe(album.body.result[1].media_group_id);
    const edited = await api(fake, "editMessageCaption", {
      chat_id: 8,
      message_id: photo.message_id,
      caption: "<i>second</i>",
      parse_mode: "HTML",
    });
    expect(edited.body.result).toMatchObject({ caption: "second", caption_entities: [{ type: "italic", offset: 0, length: 6 }] });
    expect(fake.editsOf(photo.message_id).map((v) => v.text)).toEqual(["first", "second"]);
    expect(fake.chat(8).map((m) => m.caption)).toEqual(["second", "one", undefined]);
  });
});
