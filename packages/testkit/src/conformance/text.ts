// Texts the cases stream, and the checks on what a user ends up seeing.
import type { InboundMessage } from "@openclaw/plugin-sdk";

const WORDS = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "yankee",
];

/**
 * Plain prose of about `chars` characters (ASCII letters, spaces, full stops, blank lines between
 * paragraphs of about `paragraphChars`), deterministic for a `seed`. Nothing a platform would
 * render as markup, so what the user sees can be compared with what was sent.
 */
export function prose(chars: number, seed = 1, paragraphChars = 400): string {
  let out = "";
  let paragraph = 0;
  let i = seed * 7;
  while (out.length < chars) {
    let sentence = "";
    const length = 5 + (i % 9);
    for (let w = 0; w < length; w++) sentence += (w === 0 ? "" : " ") + WORDS[(i + w * 5) % WORDS.length];
    sentence = `${sentence[0]!.toUpperCase()}${sentence.slice(1)} ${i}.`;
    i += 1;
    const sep = out === "" ? "" : paragraph >= paragraphChars ? "\n\n" : " ";
    if (sep === "\n\n") paragraph = 0;
    out += sep + sentence;
    paragraph += sentence.length + 1;
  }
  return out.slice(0, chars).trimEnd() + ".";
}

/**
 * Checks that `messages` show `finalText` exactly once, in order: each message (trimmed) is the
 * next piece of the text, whitespace between pieces may differ. Returns what is wrong, or null.
 */
export function reassemblyError(messages: readonly string[], finalText: string): string | null {
  let pos = 0;
  for (const [i, raw] of messages.entries()) {
    const message = raw.trim();
    while (pos < finalText.length && /\s/.test(finalText[pos]!)) pos++;
    if (!finalText.startsWith(message, pos)) {
      return `message ${i + 1} of ${messages.length} (${JSON.stringify(message.slice(0, 50))}…) does not continue the reply at offset ${pos} (${JSON.stringify(finalText.slice(pos, pos + 50))}…): text is repeated, lost or changed`;
    }
    pos += message.length;
  }
  const rest = finalText.slice(pos);
  return rest.trim() === ""
    ? null
    : `the reply is incomplete: ${rest.length} characters missing after offset ${pos} (${JSON.stringify(rest.slice(0, 50))}…)`;
}

/** What is wrong with a message a plugin handed to `receive` (empty when it is well-formed). */
export function inboundProblems(message: InboundMessage, channel: string, accountId: string): string[] {
  const problems: string[] = [];
  const m = message as unknown as Record<string, any>;
  if (m === null || typeof m !== "object") return ["is not an object"];
  if (m.channel !== channel) problems.push(`channel is ${JSON.stringify(m.channel)}, expected ${JSON.stringify(channel)}`);
  if (m.accountId !== accountId) problems.push(`accountId is ${JSON.stringify(m.accountId)}, expected ${JSON.stringify(accountId)}`);
  if (typeof m.messageId !== "string" || m.messageId === "") problems.push("messageId must be a non-empty string");
  if (typeof m.chat !== "object" || m.chat === null) problems.push("chat is missing");
  else {
    if (!["direct", "group", "channel"].includes(m.chat.kind)) problems.push(`chat.kind is ${JSON.stringify(m.chat.kind)}`);
    if (typeof m.chat.id !== "string" || m.chat.id === "") problems.push("chat.id must be a non-empty string");
    if (m.chat.threadId !== undefined && typeof m.chat.threadId !== "string") problems.push("chat.threadId must be a string");
  }
  if (typeof m.sender !== "object" || m.sender === null || typeof m.sender.id !== "string" || m.sender.id === "")
    problems.push("sender.id must be a non-empty string");
  if (typeof m.text !== "string") problems.push("text must be a string");
  if (typeof m.mentionsBot !== "boolean") problems.push("mentionsBot must be a boolean");
  if (typeof m.receivedAt !== "number" || !Number.isFinite(m.receivedAt)) problems.push("receivedAt must be a number (ms since the epoch)");
  if (m.media !== undefined && !Array.isArray(m.media)) problems.push("media must be an array");
  return problems;
}

/** Versions of one message whose text its last version does not start with (text shown, then taken back). */
export function nonPrefixVersions(versions: readonly string[]): string[] {
  const last = versions[versions.length - 1] ?? "";
  return versions.filter((v) => !last.startsWith(v.trimEnd()));
}
