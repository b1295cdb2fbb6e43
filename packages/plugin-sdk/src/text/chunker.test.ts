import { describe, expect, it } from "vitest";
import { BlockChunker, type BlockChunkerOptions } from "./index.js";

/** Streams `text` in deltas of `size` characters, then force-flushes. */
function run(options: BlockChunkerOptions, text: string, size = 5): string[] {
  const chunker = new BlockChunker(options);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...chunker.push(text.slice(i, i + size)));
  out.push(...chunker.flush());
  return out;
}

const words = (n: number) => Array.from({ length: n }, () => "word").join(" ");

describe("BlockChunker bounds", () => {
  it("emits nothing below minChars until forced", () => {
    const chunker = new BlockChunker({ minChars: 50, maxChars: 100 });
    expect(chunker.push("Short line.\n\nAnother one.")).toEqual([]);
    expect(chunker.bufferedText).toBe("Short line.\n\nAnother one.");
    expect(chunker.flush()).toEqual(["Short line.\n\nAnother one."]);
    expect(chunker.bufferedText).toBe("");
  });

  it("a forced flush of a blank buffer emits nothing", () => {
    const chunker = new BlockChunker({ minChars: 5, maxChars: 10 });
    chunker.push(" \n\n ");
    expect(chunker.flush()).toEqual([]);
  });

  it("a non-forced flush is a drain, not an emit-all", () => {
    const chunker = new BlockChunker({ minChars: 50, maxChars: 100 });
    chunker.push("tiny");
    expect(chunker.flush({ force: false })).toEqual([]);
    expect(chunker.flush({ force: true })).toEqual(["tiny"]);
  });

  it("cuts once the buffer holds maxChars plus a few characters of lookahead, at the best break in it", () => {
    const chunker = new BlockChunker({ minChars: 10, maxChars: 20 });
    // Breaks past minChars exist early; more text may still bring a better one.
    expect(chunker.push("Intro text and more")).toEqual([]);
    expect(chunker.push(" words")).toEqual([]);
    expect(chunker.push(" here")).toEqual(["Intro text and more"]);
    expect(chunker.bufferedText).toBe("words here");
  });

  it("a forced flush longer than maxChars is split, every block but the last at least minChars", () => {
    const chunker = new BlockChunker({ minChars: 20, maxChars: 30 });
    chunker.push("a b ");
    // Pushed in one go the drain already splits; the flush splits the rest.
    const out = [...chunker.push(words(20)), ...chunker.flush()];
    expect(out.slice(0, -1).every((c) => c.length >= 20 && c.length <= 30)).toBe(true);
    expect(out.join(" ")).toBe(`a b ${words(20)}`);
  });

  it("clamps maxChars to textChunkLimit and minChars to maxChars", () => {
    const chunker = new BlockChunker({ minChars: 800, maxChars: 1200, textChunkLimit: 30 });
    expect(chunker.maxChars).toBe(30);
    expect(chunker.minChars).toBe(30);
    // minChars == maxChars leaves no room for a soft break: every block is a hard cut of 30.
    const out = run({ minChars: 800, maxChars: 1200, textChunkLimit: 30 }, words(40));
    expect(out.slice(0, -1).every((c) => c.length === 30)).toBe(true);
    expect(out.join("")).toBe(words(40));
  });

  it("drops newlines that arrive right after a break", () => {
    const chunker = new BlockChunker({ minChars: 5, maxChars: 12 });
    expect(chunker.push(`Hello there${"\n".repeat(9)}`)).toEqual(["Hello there"]);
    expect(chunker.push("\n\n")).toEqual([]);
    expect(chunker.push("Next")).toEqual([]);
    expect(chunker.flush()).toEqual(["Next"]);
  });

  it("drops reset text", () => {
    const chunker = new BlockChunker({ minChars: 5, maxChars: 10 });
    chunker.push("abc");
    chunker.reset();
    expect(chunker.flush()).toEqual([]);
  });
});

describe("BlockChunker streaming in small deltas", () => {
  // Paragraphs of whole sentences, 87 characters each: four fit in a 400-character block.
  const paragraph = (i: number) => `Paragraph ${i} starts here. It goes on for a while with plain words. Then it ends at last.`;
  const text = Array.from({ length: 9 }, (_, i) => paragraph(i)).join("\n\n");

  it("breaks at the same paragraph ends in 20-character deltas as when fed whole", () => {
    const options = { minChars: 300, maxChars: 400 };
    const whole = run(options, text, text.length);
    const paragraphs = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => paragraph(from + k)).join("\n\n");
    expect(whole).toEqual([paragraphs(0, 4), paragraphs(4, 8), paragraphs(8, 9)]);
    expect(run(options, text, 20)).toEqual(whole);
  });

  it("does not take a space just because minChars is reached: it waits for a paragraph end or maxChars", () => {
    const chunker = new BlockChunker({ minChars: 300, maxChars: 400 });
    const push = (from: number, to: number) => {
      const out: string[] = [];
      for (let i = from; i < to; i += 20) out.push(...chunker.push(text.slice(i, i + 20)));
      return out;
    };
    // Spaces and sentence ends past minChars (300) arrive long before the fourth paragraph ends (354).
    expect(push(0, 340)).toEqual([]);
    expect(push(340, 360)).toEqual([[paragraph(0), paragraph(1), paragraph(2), paragraph(3)].join("\n\n")]);
  });
});

describe("BlockChunker break preference", () => {
  // One break of every kind at or after minChars (20) and within maxChars (80).
  const text = "First paragraph of text.\n\nSecond line here\nthird. Fourth part with words and more words to pad it out";

  it("paragraph: the blank line wins over later newline, sentence and space breaks", () => {
    expect(new BlockChunker({ minChars: 20, maxChars: 80 }).push(text)).toEqual(["First paragraph of text."]);
  });

  it("newline: the first newline at or after minChars", () => {
    const chunker = new BlockChunker({ minChars: 20, maxChars: 80, breakPreference: "newline" });
    expect(chunker.push(text)).toEqual(["First paragraph of text."]);
    const later = new BlockChunker({ minChars: 30, maxChars: 80, breakPreference: "newline" });
    expect(later.push(text)).toEqual(["First paragraph of text.\n\nSecond line here"]);
  });

  it("sentence: the first sentence end past minChars, skipping paragraphs and newlines", () => {
    const chunker = new BlockChunker({ minChars: 30, maxChars: 80, breakPreference: "sentence" });
    expect(chunker.push(text)).toEqual(["First paragraph of text.\n\nSecond line here\nthird."]);
  });

  it("fill: the last break of the preferred kind in a full window, however the text arrives", () => {
    const two = "Paragraph one is here.\n\nParagraph two is here.\n\nAnd the third one goes on and on and on";
    expect(run({ minChars: 10, maxChars: 60, fill: true }, two, 1000)).toEqual([
      "Paragraph one is here.\n\nParagraph two is here.",
      "And the third one goes on and on and on",
    ]);
    expect(run({ minChars: 10, maxChars: 60, fill: true }, two, 3)).toEqual(run({ minChars: 10, maxChars: 60, fill: true }, two, 1000));
    // By default the first paragraph end past minChars ends the block.
    expect(run({ minChars: 10, maxChars: 60 }, two, 1000)[0]).toBe("Paragraph one is here.");
  });

  it("paragraph falls back to newline, then sentence, then whitespace", () => {
    const opts = { minChars: 10, maxChars: 40 };
    expect(new BlockChunker(opts).push("Line one is here\nline two is here and goes on and on")).toEqual(["Line one is here"]);
    expect(new BlockChunker(opts).push("One sentence. Two sentence! Three goes on and on")).toEqual(["One sentence. Two sentence!"]);
    expect(new BlockChunker(opts).push("no sentence ends at all just words and more words")).toEqual([
      "no sentence ends at all just words and",
    ]);
  });

  it("a dot not followed by whitespace is no sentence end", () => {
    const chunker = new BlockChunker({ minChars: 5, maxChars: 32, breakPreference: "sentence" });
    expect(chunker.push("Pi is 3.14159 roughly, see e.g. the docs")).toEqual(["Pi is 3.14159 roughly, see e.g."]);
  });

  it("newline preference waits for maxChars when there is no newline", () => {
    const chunker = new BlockChunker({ minChars: 5, maxChars: 30, breakPreference: "newline" });
    expect(chunker.push("Some words. More words")).toEqual([]);
    // At maxChars it takes the last whitespace in the window; sentence ends are not considered.
    expect(chunker.push(" and yet more words")).toEqual(["Some words. More words and"]);
  });

  it("cuts hard at maxChars when there is no whitespace", () => {
    expect(run({ minChars: 5, maxChars: 10 }, "x".repeat(25))).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });

  it("never separates a surrogate pair at a hard cut", () => {
    expect(run({ minChars: 1, maxChars: 5 }, "😀😀😀😀")).toEqual(["😀😀", "😀😀"]);
  });

  it("does not emit below minChars even with breaks available", () => {
    const out = run({ minChars: 30, maxChars: 60 }, `a\n\nb\n\nc\n\n${words(20)}`);
    expect(out[0]!.length).toBeGreaterThanOrEqual(30);
  });
});

describe("BlockChunker code fences", () => {
  it("never breaks inside a fence that fits", () => {
    // The only breaks at or after minChars before the fence closes are inside it.
    const text = "Intro.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nOutro text after the fence.";
    const expected = ["Intro.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```", "Outro text after the fence."];
    expect(run({ minChars: 20, maxChars: 60 }, text, 1000)).toEqual(expected);
    expect(run({ minChars: 20, maxChars: 60 }, text, 3)).toEqual(expected);
  });

  it("with fill, prefers the last paragraph break in the window, here after the fence", () => {
    const text = "Intro text here.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nOutro text after the fence.";
    expect(run({ minChars: 10, maxChars: 60, fill: true }, text, 1000)).toEqual([
      "Intro text here.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```",
      "Outro text after the fence.",
    ]);
  });

  it("closes and reopens a fence longer than maxChars, with its marker and info string", () => {
    const code = Array.from({ length: 12 }, (_, i) => `line ${i};`).join("\n");
    const out = run({ minChars: 20, maxChars: 50 }, `~~~~python\n${code}\n~~~~\nafter`, 4);
    for (const chunk of out.slice(0, -1)) {
      expect(chunk.length).toBeLessThanOrEqual(50);
      expect(chunk.startsWith("~~~~python\n")).toBe(true);
      expect(chunk.endsWith("\n~~~~")).toBe(true);
    }
    // Whole lines stay together where a line end fits.
    expect(out[0]).toBe("~~~~python\nline 0;\nline 1;\nline 2;\nline 3;\n~~~~");
    expect(out.at(-1)).toBe("after");
    const body = out
      .map((c) =>
        c
          .split("\n")
          .filter((l) => !l.startsWith("~~~~"))
          .join("\n"),
      )
      .join("\n");
    expect(body).toBe(`${code}\nafter`);
  });

  it("keeps the indent of an indented fence when closing it", () => {
    const out = run({ minChars: 10, maxChars: 40 }, `   \`\`\`\n${"z".repeat(70)}\n   \`\`\``, 6);
    // 7 (opening line) + 26 + 1 + 6 (closing line) = 40.
    expect(out).toEqual([
      `   \`\`\`\n${"z".repeat(26)}\n   \`\`\``,
      `   \`\`\`\n${"z".repeat(26)}\n   \`\`\``,
      `   \`\`\`\n${"z".repeat(18)}\n   \`\`\``,
    ]);
  });

  it("a shorter run or another marker inside a fence does not close it", () => {
    const text = "````\n```\n~~~\nstill code\n````\nafter words here";
    // Had "```" closed the fence, the last safe newline would be the one before "````".
    const expected = ["````\n```\n~~~\nstill code\n````", "after words here"];
    expect(run({ minChars: 5, maxChars: 30 }, text, 1000)).toEqual(expected);
    expect(run({ minChars: 20, maxChars: 30 }, text, 2)).toEqual(expected);
  });

  it("a fence with four leading spaces is not a fence", () => {
    // Had the line opened a fence, no break after it would be safe.
    expect(run({ minChars: 10, maxChars: 20 }, "    ```\nsome words that wrap around")).toEqual([
      "    ```\nsome words",
      "that wrap around",
    ]);
  });

  it("an unclosed fence stays unsafe while streaming and is cut with repair", () => {
    const chunker = new BlockChunker({ minChars: 10, maxChars: 30 });
    // Up to "let y" the block would end at 27; with the closing line it would be 31 > 30.
    expect(chunker.push("```js\nlet x = 1;\nlet y = 2;\nlet z = 3;\n")).toEqual(["```js\nlet x = 1;\n```"]);
    expect(chunker.flush()).toEqual(["```js\nlet y = 2;\nlet z = 3;\n"]);
  });

  it("waits instead of cutting when a line at the end may still open a fence", () => {
    const chunker = new BlockChunker({ minChars: 10, maxChars: 14 });
    // At maxChars the last line "  ``" could still become a fence opener: no cut through it yet.
    expect(chunker.push("abcdefghi\n  ``")).toEqual([]);
    // It does: the block ends before the fence, which does not fit next to it.
    expect(chunker.push("`\ncode\n```\n")).toEqual(["abcdefghi\n"]);
    expect(chunker.flush()).toEqual([" ```\ncode\n```\n"]);
  });

  it("breaks before a fence that does not fit when the text before it allows", () => {
    const out = run({ minChars: 10, maxChars: 40 }, `Some intro words.\n\`\`\`\n${"q".repeat(30)}\n\`\`\`\n`, 1000);
    expect(out).toEqual(["Some intro words.", `\`\`\`\n${"q".repeat(30)}\n\`\`\`\n`]);
  });

  it("a closing fence followed by CR still closes", () => {
    const out = run({ minChars: 5, maxChars: 20 }, "```\r\ncode\r\n```\r\nafter text", 1000);
    expect(out).toEqual(["```\r\ncode\r\n```\r", "after text"]);
  });
});

describe("BlockChunker newline chunk mode", () => {
  it("emits each paragraph as soon as it is complete, regardless of minChars", () => {
    const chunker = new BlockChunker({ minChars: 800, maxChars: 1200, chunkMode: "newline" });
    expect(chunker.push("First para.\n")).toEqual([]);
    expect(chunker.push("\nSecond ")).toEqual(["First para."]);
    expect(chunker.push("para.\n  \n\n\nThird")).toEqual(["Second para."]);
    expect(chunker.flush()).toEqual(["Third"]);
  });

  it("does not treat a blank line inside a fence as a paragraph end", () => {
    const chunker = new BlockChunker({ minChars: 1, maxChars: 200, chunkMode: "newline" });
    expect(chunker.push("```\na\n\nb\n```\n\nnext")).toEqual(["```\na\n\nb\n```"]);
  });

  it("still splits a paragraph longer than maxChars", () => {
    const out = run({ minChars: 10, maxChars: 30, chunkMode: "newline" }, `${words(12)}\n\nshort`, 4);
    expect(out).toEqual(["word word word word word word", "word word word word word word", "short"]);
  });

  it("a separator at the very start stays in front of the next paragraph", () => {
    expect(run({ minChars: 50, maxChars: 100, chunkMode: "newline" }, "\n\n\nHello\n\nWorld")).toEqual(["\n\n\nHello", "World"]);
  });
});
