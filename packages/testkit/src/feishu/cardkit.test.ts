import { afterEach, describe, expect, it } from "vitest";
import { errorCode, sdkClient } from "./__fixtures__/sdk.js";
import { type FakeFeishu, startFakeFeishu } from "./index.js";

let fake: FakeFeishu;
afterEach(async () => fake?.close());

const streamingCard = (text: string) =>
  JSON.stringify({
    schema: "2.0",
    config: { streaming_mode: true, summary: { content: "[Generating...]" } },
    body: {
      elements: [
        { tag: "markdown", content: text, element_id: "content" },
        { tag: "hr", element_id: "rule" },
      ],
    },
  });

async function sendCard(client: ReturnType<typeof sdkClient>, chatId: string, initial = "") {
  const created = await client.cardkit.v1.card.create({ data: { type: "card_json", data: streamingCard(initial) } });
  const cardId = created.data!.card_id!;
  const sent = await client.im.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: chatId, msg_type: "interactive", content: JSON.stringify({ type: "card", data: { card_id: cardId } }) },
  });
  return { cardId, messageId: sent.data!.message_id! };
}

describe("fake Feishu: CardKit streaming cards through the real SDK", () => {
  it("every card entity gets its own id (19-digit ids past 2^53 must not collide)", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const created = await client.cardkit.v1.card.create({ data: { type: "card_json", data: streamingCard(`card ${i}`) } });
      ids.push(created.data!.card_id!);
    }
    expect(new Set(ids).size).toBe(40);
    expect(fake.cards().map((c) => c.cardId)).toEqual(ids);
  });

  it("streams full text into the markdown element with rising sequences; the chat shows the latest", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { cardId } = await sendCard(client, "oc_s");
    expect(fake.visibleText("oc_s")).toBe("");
    const content = (text: string, sequence: number) =>
      client.cardkit.v1.cardElement.content({ path: { card_id: cardId, element_id: "content" }, data: { content: text, sequence } });
    await content("Hel", 1);
    await content("Hello, wor", 2);
    await content("Hello, world.", 5);
    expect(fake.visibleText("oc_s")).toBe("Hello, world.");

    await client.cardkit.v1.card.settings({
      path: { card_id: cardId },
      data: { settings: JSON.stringify({ config: { streaming_mode: false, summary: { content: "Hello, world." } } }), sequence: 6 },
    });
    const [card] = fake.cards();
    expect(card).toMatchObject({ cardId, sequence: 6, streaming: false, summary: "Hello, world.", elements: { content: "Hello, world." } });
    expect(card!.history.map((h) => [h.sequence, h.content])).toEqual([
      [0, ""],
      [1, "Hel"],
      [2, "Hello, wor"],
      [5, "Hello, world."],
    ]);
  });

  it("refuses a sequence that does not rise (300317) and leaves the card as it was", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { cardId } = await sendCard(client, "oc_q");
    const content = (text: string, sequence: number) =>
      client.cardkit.v1.cardElement.content({ path: { card_id: cardId, element_id: "content" }, data: { content: text, sequence } });
    await content("one", 3);
    expect(await errorCode(content("stale", 3))).toBe(300317);
    expect(await errorCode(content("older", 2))).toBe(300317);
    const settings = JSON.stringify({ config: { streaming_mode: false } });
    expect(await errorCode(client.cardkit.v1.card.settings({ path: { card_id: cardId }, data: { settings, sequence: 1 } }))).toBe(300317);
    expect(fake.visibleText("oc_q")).toBe("one");
    expect(fake.cards()[0]).toMatchObject({ sequence: 3, streaming: true });
  });

  it("answers unknown cards and elements and non-text elements with the platform's codes, and a repeated uuid once", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { cardId } = await sendCard(client, "oc_u");
    const stream = (card: string, element: string) =>
      errorCode(
        client.cardkit.v1.cardElement.content({ path: { card_id: card, element_id: element }, data: { content: "x", sequence: 1 } }),
      );
    expect(await stream("123", "content")).toBe(200740);
    expect(await stream(cardId, "nope")).toBe(300309);
    expect(await stream(cardId, "rule")).toBe(99992402);
    const once = { path: { card_id: cardId, element_id: "content" }, data: { content: "retry-safe", sequence: 1, uuid: "s_1" } };
    await client.cardkit.v1.cardElement.content(once);
    expect((await client.cardkit.v1.cardElement.content(once)).code).toBe(0);
    expect(fake.cards()[0]!.history.filter((h) => h.content === "retry-safe")).toHaveLength(1);
  });

  it("refuses a card over 30 KB (200860), sending a card entity twice (230099) or an unknown one (200740)", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { cardId } = await sendCard(client, "oc_big");
    const tooBig = "x".repeat(31 * 1024);
    expect(
      await errorCode(
        client.cardkit.v1.cardElement.content({ path: { card_id: cardId, element_id: "content" }, data: { content: tooBig, sequence: 1 } }),
      ),
    ).toBe(200860);
    expect(await errorCode(client.cardkit.v1.card.create({ data: { type: "card_json", data: streamingCard(tooBig) } }))).toBe(200860);
    const sendEntity = (id: string) =>
      errorCode(
        client.im.message.create({
          params: { receive_id_type: "chat_id" },
          data: { receive_id: "oc_big", msg_type: "interactive", content: JSON.stringify({ type: "card", data: { card_id: id } }) },
        }),
      );
    expect(await sendEntity(cardId)).toBe(230099);
    expect(await sendEntity("999")).toBe(200740);
  });

  it("replaces the whole card and single elements; visibleText follows every markdown element in order", async () => {
    fake = await startFakeFeishu();
    const client = sdkClient(fake);
    const { cardId, messageId } = await sendCard(client, "oc_f", "draft");
    const full = JSON.stringify({
      schema: "2.0",
      body: {
        elements: [
          { tag: "markdown", content: "part one", element_id: "a" },
          { tag: "hr" },
          { tag: "markdown", content: "part two", element_id: "b" },
        ],
      },
    });
    await client.cardkit.v1.card.update({ path: { card_id: cardId }, data: { card: { type: "card_json", data: full }, sequence: 1 } });
    expect(fake.visibleText("oc_f")).toBe("part one\npart two");
    await client.cardkit.v1.cardElement.update({
      path: { card_id: cardId, element_id: "b" },
      data: { element: JSON.stringify({ tag: "markdown", content: "part two, final" }), sequence: 2 },
    });
    expect(fake.visibleText("oc_f")).toBe("part one\npart two, final");
    await client.im.message.delete({ path: { message_id: messageId } });
    expect(fake.visibleText("oc_f")).toBe("");
  });
});
