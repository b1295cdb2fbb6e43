import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlNodeToText, type DomNode } from "./html-to-text.js";

export interface ExtractedPage {
  title?: string;
  text: string;
  /** "readability" when an article was found, "body" when the whole body was rendered. */
  method: "readability" | "body";
}

/**
 * Readable text of an HTML page: Mozilla Readability (on a linkedom DOM) picks the main content;
 * when it finds no article, the whole body is rendered instead. Links become absolute against
 * `url`.
 */
export function extractReadableText(html: string, url: string): ExtractedPage {
  const { document } = parseHTML(html);
  const docTitle = (document.title ?? "").trim() || undefined;
  try {
    // The serializer hands back the article's DOM node itself, so it need not be re-parsed.
    const reader = new Readability<DomNode>(document as unknown as ConstructorParameters<typeof Readability>[0], {
      serializer: (node) => node as unknown as DomNode,
    });
    const article = reader.parse();
    if (article?.content) {
      const text = htmlNodeToText(article.content, url);
      if (text.length > 0) {
        const title = article.title?.trim() || docTitle;
        return { ...(title ? { title } : {}), text, method: "readability" };
      }
    }
  } catch {
    // Readability gave up on this markup; fall back to the whole body below.
  }
  const { document: fresh } = parseHTML(html);
  const body = (fresh.body ?? fresh.documentElement) as unknown as DomNode;
  return { ...(docTitle ? { title: docTitle } : {}), text: body ? htmlNodeToText(body, url) : "", method: "body" };
}
