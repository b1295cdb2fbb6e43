/** How many dropped messages the summary lists one by one; the rest are counted. */
const SUMMARY_LINES = 10;

/** The first few words of a message on one line, with "…" when cut (at most `maxWords` words and `maxChars` characters). */
export function snippet(text: string, maxWords = 8, maxChars = 60): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  let out = words.slice(0, maxWords).join(" ");
  let cut = words.length > maxWords;
  if (out.length > maxChars) {
    out = out.slice(0, maxChars).trimEnd();
    cut = true;
  }
  return cut ? `${out}…` : out;
}

/**
 * The note prepended to the next turn after `drop: "summarize"` dropped messages:
 * `[2 earlier messages were dropped:\n- first words…\n- …]`. Empty when nothing was dropped.
 */
export function droppedSummary(snippets: readonly string[]): string {
  const count = snippets.length;
  if (count === 0) return "";
  const lines = snippets.slice(0, SUMMARY_LINES).map((s) => `- ${s}`);
  if (count > SUMMARY_LINES) lines.push(`- and ${count - SUMMARY_LINES} more`);
  const head = count === 1 ? "1 earlier message was dropped" : `${count} earlier messages were dropped`;
  return `[${head}:\n${lines.join("\n")}]`;
}

/** One turn's text for messages collected while the agent was busy (collect mode); a single message stays as it is. */
export function collectedText(texts: readonly string[]): string {
  if (texts.length === 1) return texts[0]!;
  const body = texts.map((t, i) => `(${i + 1}) ${t}`).join("\n\n");
  return `[${texts.length} messages arrived while you were busy, oldest first]\n\n${body}`;
}

/** One turn's text for steering messages the run ended before taking: in order, separated by blank lines. */
export function leftoverSteeringText(texts: readonly string[]): string {
  return texts.join("\n\n");
}

/** Prepends the dropped-messages note (if any) to a turn's text. */
export function withDroppedNote(note: string, text: string): string {
  return note ? `${note}\n\n${text}` : text;
}
