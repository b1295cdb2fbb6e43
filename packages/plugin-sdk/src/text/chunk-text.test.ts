import { describe, expect, it } from "vitest";
import { chunkText } from "./index.js";

describe("chunkText (outbound final chunking)", () => {
  it("returns a text that fits whole, and nothing for blank text", () => {
    expect(chunkText("Hello\n\nWorld", { maxChars: 100 })).toEqual(["Hello\n\nWorld"]);
    expect(chunkText("  \n ", { maxChars: 100 })).toEqual([]);
    expect(chunkText("", { maxChars: 100 })).toEqual([]);
  });

  it("length mode breaks at the last newline in the window, else the last whitespace", () => {
    expect(chunkText("one two\nthree four five six", { maxChars: 20 })).toEqual(["one two", "three four five six"]);
    expect(chunkText("one two three four five six", { maxChars: 20 })).toEqual(["one two three four", "five six"]);
  });

  it("keeps a parenthesised span whole when another break exists", () => {
    const text = "Read this (see the full docs at the site) now";
    expect(chunkText(text, { maxChars: 40 })).toEqual(["Read this", "(see the full docs at the site) now"]);
    expect(chunkText(text, { maxChars: 42 })).toEqual(["Read this (see the full docs at the site)", "now"]);
  });

  it("breaks inside parentheses rather than cutting a word when nothing else fits", () => {
    expect(chunkText("(aaa bbb ccc ddd eee fff)", { maxChars: 10 })[0]).toBe("(aaa bbb");
  });

  it("closes and reopens a long fence, preferring line ends and leaving room for the closing line", () => {
    const code = Array.from({ length: 10 }, (_, i) => `print(${i})`).join("\n");
    const chunks = chunkText(`\`\`\`python\n${code}\n\`\`\``, { maxChars: 40 });
    expect(chunks[0]).toBe("```python\nprint(0)\nprint(1)\nprint(2)\n```");
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(40);
      expect(chunk.startsWith("```python\n")).toBe(true);
      expect(chunk.endsWith("\n```")).toBe(true);
    }
  });

  it("newline mode sends each paragraph on its own, splitting only the long ones", () => {
    const text = "Short one.\n\nAnother short.\n\n```\ncode\n\nmore code\n```\n\nA much longer paragraph that will not fit.";
    expect(chunkText(text, { maxChars: 30, mode: "newline" })).toEqual([
      "Short one.",
      "Another short.",
      "```\ncode\n\nmore code\n```",
      "A much longer paragraph that",
      "will not fit.",
    ]);
  });
});
