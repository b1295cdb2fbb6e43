import {
  cardElements,
  containerOf,
  elementText,
  findElement,
  isObject,
  isStreamableText,
  parseJsonObject,
  setElementText,
} from "./card-json.js";
import { type FeishuAnswer, feishuError, ok } from "./envelope.js";
import type { FakeFeishuCard } from "./types.js";

type Json = Record<string, unknown>;

/** The platform's card size limit (serialized card JSON). */
export const CARD_MAX_BYTES = 30 * 1024;

interface CardEntity {
  cardId: string;
  card: Json;
  sequence: number;
  history: FakeFeishuCard["history"];
  /** uuid -> the answer it got (idempotent retries). */
  uuids: Map<string, FeishuAnswer>;
  sent: boolean;
}

/**
 * CardKit card entities (`/open-apis/cardkit/v1/cards...`). Every change after create carries a
 * `sequence` that must be greater than the card's last one (else 300317); a repeated `uuid` gets the
 * first answer again without a change.
 */
export class CardKit {
  private readonly cards = new Map<string, CardEntity>();
  /** Card ids are 19-digit numbers, past 2^53: counted as a bigint so no two collide. */
  private counter = 7_355_372_766_134_157_000n;

  constructor(private readonly clock: () => number) {}

  /** POST /cards `{type: "card_json", data}`. */
  create(body: Json): FeishuAnswer {
    if (body.type !== "card_json") return feishuError("invalidParam", "type must be card_json");
    const card = parseJsonObject(body.data);
    if (!card) return feishuError("invalidParam", "data is not card JSON");
    if (Buffer.byteLength(JSON.stringify(card)) > CARD_MAX_BYTES) return feishuError("cardTooLarge");
    this.counter += BigInt(1 + Math.floor(Math.random() * 1000));
    const cardId = String(this.counter);
    this.cards.set(cardId, { cardId, card, sequence: 0, history: [], uuids: new Map(), sent: false });
    for (const el of cardElements(card)) {
      const text = elementText(el);
      if (typeof el.element_id === "string" && text !== undefined) this.record(this.cards.get(cardId)!, el.element_id, text, 0);
    }
    return ok({ card_id: cardId });
  }

  has(cardId: string): boolean {
    return this.cards.has(cardId);
  }

  /** Marks a card entity as sent in a message; false if it already was (an entity is sent once). */
  takeForSending(cardId: string): boolean {
    const entity = this.cards.get(cardId);
    if (!entity || entity.sent) return false;
    entity.sent = true;
    return true;
  }

  /** The card JSON as it stands (a copy), for rendering a message that carries it. */
  current(cardId: string): Json | undefined {
    const entity = this.cards.get(cardId);
    return entity ? structuredClone(entity.card) : undefined;
  }

  /** PUT /cards/:id/elements/:eid/content `{content, sequence, uuid?}`: the full text so far. */
  setContent(cardId: string, elementId: string, body: Json): FeishuAnswer {
    return this.change(cardId, body, (entity, sequence) => {
      if (typeof body.content !== "string") return feishuError("invalidParam", "content is required");
      const el = findElement(entity.card, elementId);
      if (!el) return feishuError("cardElementNotFound");
      if (!isStreamableText(el)) return feishuError("invalidParam", "only markdown and plain_text elements take streamed content");
      setElementText(el, body.content);
      this.record(entity, elementId, body.content, sequence);
      return undefined;
    });
  }

  /** PATCH /cards/:id/settings `{settings: JSON {config, card_link}, sequence, uuid?}`. */
  settings(cardId: string, body: Json): FeishuAnswer {
    return this.change(cardId, body, (entity) => {
      const settings = parseJsonObject(body.settings);
      if (!settings) return feishuError("invalidParam", "settings is not JSON");
      if (isObject(settings.config))
        entity.card.config = { ...(isObject(entity.card.config) ? entity.card.config : {}), ...settings.config };
      if (isObject(settings.card_link)) entity.card.card_link = settings.card_link;
      return undefined;
    });
  }

  /** PUT /cards/:id `{card: {type: "card_json", data}, sequence, uuid?}`: replaces the whole card. */
  replace(cardId: string, body: Json): FeishuAnswer {
    return this.change(cardId, body, (entity, sequence) => {
      const wrapper = isObject(body.card) ? body.card : undefined;
      const card = parseJsonObject(wrapper?.data);
      if (!card) return feishuError("invalidParam", "card.data is not card JSON");
      entity.card = card;
      this.recordAll(entity, sequence);
      return undefined;
    });
  }

  /** PUT /cards/:id/elements/:eid `{element: JSON, sequence}` (replace) or PATCH `{partial_element: JSON}` (merge). */
  updateElement(cardId: string, elementId: string, body: Json, partial: boolean): FeishuAnswer {
    return this.change(cardId, body, (entity, sequence) => {
      const given = parseJsonObject(partial ? body.partial_element : body.element);
      if (!given) return feishuError("invalidParam", "element is not JSON");
      const place = containerOf(entity.card, elementId);
      if (!place || !findElement(entity.card, elementId)) return feishuError("cardElementNotFound");
      const old = place.list[place.index] as Json;
      place.list[place.index] = partial ? { ...old, ...given } : { element_id: elementId, ...given };
      this.recordAll(entity, sequence);
      return undefined;
    });
  }

  /** POST /cards/:id/elements `{type: insert_before|insert_after|append, target_element_id?, elements: JSON array}`. */
  addElements(cardId: string, body: Json): FeishuAnswer {
    return this.change(cardId, body, (entity, sequence) => {
      let elements: unknown;
      try {
        elements = typeof body.elements === "string" ? JSON.parse(body.elements) : undefined;
      } catch {
        elements = undefined;
      }
      if (!Array.isArray(elements)) return feishuError("invalidParam", "elements is not a JSON array");
      const target = typeof body.target_element_id === "string" ? body.target_element_id : undefined;
      const place = containerOf(entity.card, body.type === "append" ? undefined : target);
      if (!place) return feishuError("cardElementNotFound");
      const at = body.type === "insert_after" ? place.index + 1 : place.index;
      place.list.splice(at, 0, ...elements);
      this.recordAll(entity, sequence);
      return undefined;
    });
  }

  /** DELETE /cards/:id/elements/:eid `{sequence}`. */
  deleteElement(cardId: string, elementId: string, body: Json): FeishuAnswer {
    return this.change(cardId, body, (entity) => {
      const place = containerOf(entity.card, elementId);
      if (!place || !findElement(entity.card, elementId)) return feishuError("cardElementNotFound");
      place.list.splice(place.index, 1);
      return undefined;
    });
  }

  /** Snapshots of every card entity, in creation order. */
  list(): FakeFeishuCard[] {
    return [...this.cards.values()].map((entity) => {
      const config = isObject(entity.card.config) ? entity.card.config : {};
      const summary = isObject(config.summary) && typeof config.summary.content === "string" ? config.summary.content : undefined;
      const elements: Record<string, string> = {};
      for (const el of cardElements(entity.card)) {
        const text = elementText(el);
        if (typeof el.element_id === "string" && text !== undefined) elements[el.element_id] = text;
      }
      return {
        cardId: entity.cardId,
        sequence: entity.sequence,
        streaming: config.streaming_mode === true,
        summary,
        elements,
        history: entity.history.map((h) => ({ ...h })),
        card: structuredClone(entity.card),
      };
    });
  }

  private change(cardId: string, body: Json, apply: (entity: CardEntity, sequence: number) => FeishuAnswer | undefined): FeishuAnswer {
    const entity = this.cards.get(cardId);
    if (!entity) return feishuError("cardNotFound");
    const uuid = typeof body.uuid === "string" && body.uuid ? body.uuid : undefined;
    const earlier = uuid ? entity.uuids.get(uuid) : undefined;
    if (earlier) return earlier;
    const sequence = body.sequence;
    if (typeof sequence !== "number" || !Number.isInteger(sequence) || sequence < 1 || sequence > 2_147_483_647) {
      return feishuError("invalidParam", "sequence must be a positive int32");
    }
    if (sequence <= entity.sequence) return feishuError("cardSequence", `sequence ${sequence} <= ${entity.sequence}`);
    const before = structuredClone(entity.card);
    const failure = apply(entity, sequence);
    if (failure) return failure;
    if (Buffer.byteLength(JSON.stringify(entity.card)) > CARD_MAX_BYTES) {
      entity.card = before;
      return feishuError("cardTooLarge");
    }
    entity.sequence = sequence;
    const answer = ok({});
    if (uuid) entity.uuids.set(uuid, answer);
    return answer;
  }

  private record(entity: CardEntity, elementId: string, content: string, sequence: number): void {
    entity.history.push({ at: this.clock(), elementId, content, sequence });
  }

  /** Records every text element whose content differs from its last recorded one. */
  private recordAll(entity: CardEntity, sequence: number): void {
    for (const el of cardElements(entity.card)) {
      const text = elementText(el);
      if (typeof el.element_id !== "string" || text === undefined) continue;
      const last = entity.history.findLast((h) => h.elementId === el.element_id);
      if (last?.content !== text) this.record(entity, el.element_id, text, sequence);
    }
  }
}
