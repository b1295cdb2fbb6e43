// Reading and changing card JSON (schema 2.0 `body.elements`, schema 1.0 `elements`), nested
// containers included (column_set columns, collapsible panels, forms).

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every element of a card in document order, nested ones after their container. */
export function cardElements(card: Json): Json[] {
  const out: Json[] = [];
  const body = isObject(card.body) ? card.body : undefined;
  const top = (Array.isArray(body?.elements) ? body.elements : Array.isArray(card.elements) ? card.elements : []) as unknown[];
  const visit = (list: unknown[]) => {
    for (const el of list) {
      if (!isObject(el)) continue;
      out.push(el);
      for (const key of ["elements", "columns"]) {
        if (Array.isArray(el[key])) visit(el[key] as unknown[]);
      }
    }
  };
  visit(top);
  return out;
}

/** The element with this `element_id`, if any. */
export function findElement(card: Json, elementId: string): Json | undefined {
  return cardElements(card).find((el) => el.element_id === elementId);
}

/** The text an element shows: `content` of markdown / plain_text, `text.content` of div. */
export function elementText(el: Json): string | undefined {
  if (typeof el.content === "string") return el.content;
  if (isObject(el.text) && typeof el.text.content === "string") return el.text.content;
  return undefined;
}

/** Sets the text an element shows (see `elementText`). */
export function setElementText(el: Json, content: string): void {
  if (isObject(el.text) && typeof el.content !== "string") el.text.content = content;
  else el.content = content;
}

/** Tags whose text is the card's body: markdown (schema 2.0), and div / lark_md text (schema 1.0). */
const BODY_TEXT_TAGS = new Set(["markdown", "lark_md", "div"]);

/** Text of the card's markdown (and schema 1.0 div) elements, in order: what a reader sees as its body. */
export function markdownText(card: Json): string[] {
  return cardElements(card)
    .filter((el) => typeof el.tag === "string" && BODY_TEXT_TAGS.has(el.tag))
    .map((el) => elementText(el) ?? "");
}

/** Elements whose text the streaming content API may set: markdown and plain_text. */
export function isStreamableText(el: Json): boolean {
  return el.tag === "markdown" || el.tag === "plain_text";
}

/** The element list an insert goes into: the parent of `targetId`, or the card's top level. */
export function containerOf(card: Json, targetId: string | undefined): { list: unknown[]; index: number } | undefined {
  const body = isObject(card.body) ? card.body : card;
  if (!Array.isArray(body.elements)) body.elements = [];
  const top = body.elements as unknown[];
  if (!targetId) return { list: top, index: top.length };
  const search = (list: unknown[]): { list: unknown[]; index: number } | undefined => {
    for (let i = 0; i < list.length; i++) {
      const el = list[i];
      if (!isObject(el)) continue;
      if (el.element_id === targetId) return { list, index: i };
      for (const key of ["elements", "columns"]) {
        const found = Array.isArray(el[key]) ? search(el[key] as unknown[]) : undefined;
        if (found) return found;
      }
    }
    return undefined;
  };
  return search(top);
}

/** Parses a JSON string field; undefined when it is not a JSON object. */
export function parseJsonObject(value: unknown): Json | undefined {
  if (isObject(value)) return value;
  if (typeof value !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export { isObject };
