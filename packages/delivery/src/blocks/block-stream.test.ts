import { BlockChunker } from "@openclaw/plugin-sdk";
import { describe, expect, it } from "vitest";
import { createBlockCoalescer } from "./coalescer.js";
import { BlockStream, blockText } from "./block-stream.js";

/** Streams `deltas` (segments separated by null = text_end) and returns the messages sent. */
function run(deltas: (string | null)[], options: { minChars?: number; maxChars?: number; coalesceMax?: number } = {}): string[] {
  const sent: string[] = [];
  const chunker = new BlockChunker({ minChars: options.minChars ?? 10, maxChars: options.maxChars ?? 60, breakPreference: "paragraph" });
  // A long idle time: blocks merge until the end, as they do when the model writes fast.
  const coalescer = createBlockCoalescer({
    minChars: 1,
    maxChars: options.coalesceMax ?? 1000,
    idleMs: 60_000,
    joiner: "",
    onFlush: (t) => sent.push(blockText(t)),
  });
  const stream = new BlockStream(chunker, coalescer);
  for (const d of deltas) {
    if (d === null) stream.endSegment();
    else stream.push(d);
  }
  stream.finish();
  return sent;
}

describe("BlockStream", () => {
  it("joins blocks the chunker split inside a sentence with the space that was there", () => {
    const text = "The second paragraph, written after a pause, goes on for a while longer than the limit.";
    expect(run([text])).toEqual([text]);
  });

  it("keeps paragraph and line breaks as they were", () => {
    const text = "First paragraph here.\n\nSecond one, also short.\nWith a second line that is long enough.";
    expect(run([text.slice(0, 30), text.slice(30)])).toEqual([text]);
  });

  it("puts a paragraph break between text blocks (text_end), and none at the start of a message", () => {
    expect(run(["Before the tool call.", null, "After the tool call."])).toEqual(["Before the tool call.\n\nAfter the tool call."]);
    expect(run(["One block that is long enough to leave alone.", null, "Another one."], { coalesceMax: 50 })).toEqual([
      "One block that is long enough to leave alone.",
      "Another one.",
    ]);
  });

  it("keeps a code fence the chunker closed and reopened readable", () => {
    const code = Array.from({ length: 8 }, (_, i) => `line ${i} of the code`).join("\n");
    const text = `Look:\n\n\`\`\`js\n${code}\n\`\`\`\nDone.`;
    const [merged] = run([text]);
    expect(merged).toContain("```js\nline 0");
    expect(merged!.replace(/\n```\n```js\n/g, "\n")).toBe(text);
  });
});
