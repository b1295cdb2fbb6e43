/**
 * The content of the events the bot sends: text as `m.text` (or `m.notice`) with `formatted_body`
 * HTML rendered from Markdown and the Markdown as the plain `body`; the MSC4357 live marker on a
 * preview that is still growing; `m.replace` edits; thread and reply relations.
 */
import type { OutboundTarget } from "@openclaw/plugin-sdk";
import { Marked } from "marked";
import { LIVE_MARKER } from "../config.js";

/** How a text event is shown. */
export interface TextStyle {
  /** `m.notice` instead of `m.text` (quiet previews). */
  notice?: boolean;
  /** Carry the MSC4357 live marker (a preview that will still be edited). */
  live?: boolean;
  /** Mention nobody (`"m.mentions": {}`): previews and quiet mode never ping. */
  noMentions?: boolean;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// Raw HTML in the model's Markdown is shown as text, never passed through to clients.
const markdown = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html(token) {
      return escapeHtml(token.text);
    },
  },
});

/** Markdown -> the HTML of `formatted_body` (GitHub-flavoured, line breaks kept, raw HTML escaped). */
export function markdownToHtml(text: string): string {
  return (markdown.parse(text, { async: false }) as string).trim();
}

/** True when rendering changes nothing a client would show differently (plain text: no formatted_body). */
function isPlainParagraph(html: string, text: string): boolean {
  const inner = /^<p>([\s\S]*)<\/p>$/.exec(html)?.[1];
  if (inner === undefined) return false;
  const unescaped = inner
    .replace(/<br>/g, "\n")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
  return unescaped === text;
}

/** The content of a text message (no relations). */
export function textContent(text: string, format: "markdown" | "plain", style: TextStyle = {}): Record<string, unknown> {
  const content: Record<string, unknown> = { msgtype: style.notice ? "m.notice" : "m.text", body: text };
  if (format === "markdown") {
    const html = markdownToHtml(text);
    if (!isPlainParagraph(html, text)) {
      content.format = "org.matrix.custom.html";
      content.formatted_body = html;
    }
  }
  if (style.noMentions) content["m.mentions"] = {};
  if (style.live) content[LIVE_MARKER] = {};
  return content;
}

/** The `m.relates_to` of a new message to `target`: in its thread (with the reply fallback), or quoting a message. */
export function relationFor(target: OutboundTarget): Record<string, unknown> | undefined {
  const threadId = target.chat.threadId;
  if (threadId !== undefined) {
    return {
      rel_type: "m.thread",
      event_id: threadId,
      is_falling_back: target.replyToMessageId === undefined,
      "m.in_reply_to": { event_id: target.replyToMessageId ?? threadId },
    };
  }
  if (target.replyToMessageId !== undefined) return { "m.in_reply_to": { event_id: target.replyToMessageId } };
  return undefined;
}

/** A new message's content with its relation to `target`. */
export function withRelation(content: Record<string, unknown>, target: OutboundTarget): Record<string, unknown> {
  const relation = relationFor(target);
  return relation ? { ...content, "m.relates_to": relation } : content;
}

/** The content of an `m.replace` edit of `eventId` to `next` (the fallback body is `* <text>`). */
export function editContent(eventId: string, next: Record<string, unknown>): Record<string, unknown> {
  const fallback: Record<string, unknown> = { ...next, body: `* ${String(next.body ?? "")}` };
  if (typeof next.formatted_body === "string") fallback.formatted_body = `* ${next.formatted_body}`;
  return { ...fallback, "m.new_content": next, "m.relates_to": { rel_type: "m.replace", event_id: eventId } };
}
