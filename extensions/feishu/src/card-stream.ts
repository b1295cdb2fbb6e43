/**
 * A reply streamed into CardKit cards: one card entity, sent as an `interactive` message, whose
 * markdown element gets the whole text so far with a strictly rising `sequence`; closed with a
 * settings update whose summary is the reply's start. When the text nears Feishu's 30 KB limit the
 * card is finished where it reads well and a next card continues from exactly there: nothing is
 * deleted and nothing is shown twice.
 */
import type { NativeStream, SentMessage } from "@openclaw/plugin-sdk";
import type { FeishuApi } from "./api.js";
import { FEISHU_CARD_INTERVAL_MS, FEISHU_CONTENT_BYTES } from "./config.js";
import { sleep } from "./sleep.js";
import { cutPoint, endsAtBreak, jsonBytes, openFence } from "./text.js";

/** The id of the markdown element that holds the text. */
export const CARD_ELEMENT_ID = "content";

/** Bytes of text one card holds: the 30 KB limit less room for the card around it. */
export const CARD_TEXT_BYTES = FEISHU_CONTENT_BYTES - 2 * 1024;

/** The summary shown in chat lists while a card streams. */
const STREAMING_SUMMARY = "[Generating...]";

/** Timing of a card stream (tests shorten it). */
export interface CardPacing {
  /** Shortest pause between two updates of a card, taken at sentence ends (default 160 ms, ~6/s). */
  intervalMs: number;
  /** Pause before an update whose text stops mid-sentence (default twice `intervalMs`). */
  midSentenceMs: number;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** Production pacing. */
export const DEFAULT_CARD_PACING: CardPacing = {
  intervalMs: FEISHU_CARD_INTERVAL_MS,
  midSentenceMs: 2 * FEISHU_CARD_INTERVAL_MS,
  now: () => Date.now(),
  sleep,
};

/** What a card stream needs from its account. */
export interface CardStreamOptions {
  api: FeishuApi;
  /** Sends a card (`{"type":"card","data":{"card_id"}}`) as an interactive message where the reply goes; returns its message id. */
  sendCard(content: string): Promise<string>;
  pacing?: CardPacing;
  /** Bytes of text per card (default `CARD_TEXT_BYTES`). */
  cardBytes?: number;
}

interface Card {
  cardId: string;
  messageId: string;
  /** Where the card's text starts in the reply. */
  start: number;
  /** Where it ends (exclusive), once the card is full; undefined for the card still growing. */
  end: number | undefined;
  /** A fence reopened at the top of the card (the previous card closed it). */
  prefix: string;
  /** A fence closed at the bottom of the card. */
  suffix: string;
  sequence: number;
  shown: string;
  streaming: boolean;
}

/** The first characters of a reply, for the card's summary in chat lists. */
export function summaryOf(text: string, max = 50): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max).join("")}...`;
}

/** One reply's cards. Build with `CardStream.open`. */
export class CardStream implements NativeStream {
  readonly #o: CardStreamOptions;
  readonly #pacing: CardPacing;
  readonly #bytes: number;
  readonly #cards: Card[] = [];
  readonly #stop = new AbortController();
  #lastPush = Number.NEGATIVE_INFINITY;
  #chain: Promise<unknown> = Promise.resolve();
  #ended = false;

  private constructor(options: CardStreamOptions) {
    this.#o = options;
    this.#pacing = options.pacing ?? DEFAULT_CARD_PACING;
    this.#bytes = options.cardBytes ?? CARD_TEXT_BYTES;
  }

  /** Creates the first card and sends it (empty, streaming); rejects when either call fails. */
  static async open(options: CardStreamOptions): Promise<CardStream> {
    const stream = new CardStream(options);
    await stream.#newCard(0, "");
    return stream;
  }

  /** Ids of the messages holding the reply, in order. */
  get messageIds(): string[] {
    return this.#cards.map((c) => c.messageId);
  }

  /** Card updates made (element content and settings), for measurements. */
  updates = 0;

  /**
   * Shows `text` (the whole reply so far). Paced: at most one update per `intervalMs`, and text
   * that stops mid-sentence waits for `midSentenceMs`; a later call carries newer text anyway.
   */
  update(text: string): Promise<void> {
    return this.#serial(async () => {
      if (this.#ended) return;
      const wait = (endsAtBreak(text) ? this.#pacing.intervalMs : this.#pacing.midSentenceMs) - (this.#pacing.now() - this.#lastPush);
      if (wait > 0) await this.#pacing.sleep(wait, this.#stop.signal);
      if (this.#ended) return;
      await this.#sync(text);
    });
  }

  /** Shows the final text in full and closes every card; returns the messages that hold it. */
  finish(finalText: string): Promise<SentMessage> {
    this.#stop.abort();
    return this.#serial(async () => {
      this.#ended = true;
      if (finalText !== "" || this.#cards.every((c) => c.shown === "")) await this.#sync(finalText);
      for (const card of this.#cards) if (card.streaming) await this.#close(card, finalText);
      const ids = this.messageIds;
      return ids.length > 1 ? { messageId: ids[ids.length - 1]!, messageIds: ids } : { messageId: ids[0]! };
    });
  }

  /** Stops streaming where the text is; the cards keep what they show. */
  abort(_reason: string): Promise<void> {
    this.#stop.abort();
    return this.#serial(async () => {
      this.#ended = true;
      const shown = this.#cards.map((c) => c.shown).join("");
      for (const card of this.#cards) if (card.streaming) await this.#close(card, shown);
    });
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(task, task);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Brings every card up to `text`, finishing a card and opening the next one when it is full. */
  async #sync(text: string): Promise<void> {
    for (;;) {
      const card = this.#cards[this.#cards.length - 1]!;
      const rest = text.slice(card.start);
      if (jsonBytes(card.prefix + rest) <= this.#bytes) break;
      // This card is full: it ends where the text reads well, and the next one continues there.
      const cut = cutPoint(rest, this.#bytes - jsonBytes(card.prefix) - 8);
      const fence = openFence(card.prefix + rest.slice(0, cut));
      card.end = card.start + cut;
      card.suffix = fence !== undefined ? "\n```" : "";
      await this.#push(card, text);
      await this.#close(card, text);
      await this.#newCard(card.end, fence !== undefined ? `\`\`\`${fence}\n` : "");
    }
    // Cards finished earlier keep their part; a final that differs there is corrected in place.
    for (const card of this.#cards) await this.#push(card, text);
  }

  #contentOf(card: Card, text: string): string {
    return card.prefix + text.slice(card.start, card.end) + card.suffix;
  }

  async #push(card: Card, text: string): Promise<void> {
    const content = this.#contentOf(card, text);
    if (content === card.shown) return;
    const sequence = ++card.sequence;
    await this.#o.api.call(
      "a card update",
      "PUT",
      `/open-apis/cardkit/v1/cards/${encodeURIComponent(card.cardId)}/elements/${CARD_ELEMENT_ID}/content`,
      { content, sequence, uuid: `u_${card.cardId}_${sequence}` },
    );
    card.shown = content;
    this.updates += 1;
    this.#lastPush = this.#pacing.now();
  }

  async #close(card: Card, text: string): Promise<void> {
    card.streaming = false;
    const sequence = ++card.sequence;
    const settings = { config: { streaming_mode: false, summary: { content: summaryOf(text.slice(card.start, card.end)) } } };
    await this.#o.api.call("closing a card", "PATCH", `/open-apis/cardkit/v1/cards/${encodeURIComponent(card.cardId)}/settings`, {
      settings: JSON.stringify(settings),
      sequence,
      uuid: `c_${card.cardId}_${sequence}`,
    });
    this.updates += 1;
  }

  async #newCard(start: number, prefix: string): Promise<void> {
    const card = {
      schema: "2.0",
      config: {
        streaming_mode: true,
        summary: { content: STREAMING_SUMMARY },
        streaming_config: { print_frequency_ms: { default: 30 }, print_step: { default: 2 }, print_strategy: "fast" },
      },
      body: { elements: [{ tag: "markdown", content: prefix, element_id: CARD_ELEMENT_ID }] },
    };
    const created = await this.#o.api.call<{ card_id?: string }>("creating a card", "POST", "/open-apis/cardkit/v1/cards", {
      type: "card_json",
      data: JSON.stringify(card),
    });
    if (!created.card_id) throw new Error("Feishu created a card but returned no card_id");
    const messageId = await this.#o.sendCard(JSON.stringify({ type: "card", data: { card_id: created.card_id } }));
    this.#cards.push({
      cardId: created.card_id,
      messageId,
      start,
      end: undefined,
      prefix,
      suffix: "",
      sequence: 0,
      shown: prefix,
      streaming: true,
    });
  }
}
