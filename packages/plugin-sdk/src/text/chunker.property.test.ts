import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deltaSizesArb, markdownArb, parseFences, roundTripProblem, splitDeltas } from "./__fixtures__/markdown.js";
import { NaiveChunker } from "./__fixtures__/naive-chunker.js";
import { BlockChunker, chunkText, type BreakPreference, type ChunkMode } from "./index.js";

// Bounds leave room for the longest generated fence lines (opening line <= 19, close <= 8), so a
// close-and-reopen always fits inside maxChars.
const boundsArb = fc
  .integer({ min: 40, max: 400 })
  .chain((max) => fc.record({ maxChars: fc.constant(max), minChars: fc.integer({ min: 1, max: max - 30 }) }));
const preferenceArb = fc.constantFrom<BreakPreference>("paragraph", "newline", "sentence");
const runs = { numRuns: 200 };

function stream(chunker: { push(d: string): readonly string[]; flush(): readonly string[] }, deltas: readonly string[]): string[] {
  const out: string[] = [];
  for (const delta of deltas) out.push(...chunker.push(delta));
  out.push(...chunker.flush());
  return out;
}

function expectWellFormed(text: string, chunks: readonly string[], maxChars: number): void {
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(maxChars);
    expect(chunk.trim()).not.toBe("");
    expect(parseFences(chunk).balanced, `unbalanced fence in ${JSON.stringify(chunk)}`).toBe(true);
  }
  expect(roundTripProblem(text, chunks)).toBeNull();
}

describe("BlockChunker properties over random Markdown in random deltas", () => {
  it("length mode: every block fits, is balanced, is at least minChars except the last, and spells the text", () => {
    fc.assert(
      fc.property(markdownArb, deltaSizesArb, boundsArb, preferenceArb, (text, sizes, bounds, breakPreference) => {
        const chunks = stream(new BlockChunker({ ...bounds, breakPreference }), splitDeltas(text, sizes));
        expectWellFormed(text, chunks, bounds.maxChars);
        for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(bounds.minChars);
      }),
      runs,
    );
  });

  it("newline mode: every block fits, is balanced and spells the text", () => {
    fc.assert(
      fc.property(markdownArb, deltaSizesArb, boundsArb, preferenceArb, (text, sizes, bounds, breakPreference) => {
        const chunks = stream(new BlockChunker({ ...bounds, breakPreference, chunkMode: "newline" }), splitDeltas(text, sizes));
        expectWellFormed(text, chunks, bounds.maxChars);
      }),
      runs,
    );
  });

  it("maxChars is clamped to textChunkLimit", () => {
    fc.assert(
      fc.property(markdownArb, deltaSizesArb, fc.integer({ min: 40, max: 120 }), (text, sizes, limit) => {
        const chunks = stream(new BlockChunker({ minChars: 10, maxChars: 1000, textChunkLimit: limit }), splitDeltas(text, sizes));
        expectWellFormed(text, chunks, limit);
      }),
      runs,
    );
  });

  it("matches a naive re-parse-everything implementation of the same rules, whatever the delta split", () => {
    fc.assert(
      fc.property(
        markdownArb,
        deltaSizesArb,
        boundsArb,
        preferenceArb,
        fc.constantFrom<ChunkMode>("length", "newline"),
        fc.boolean(),
        (text, sizes, bounds, breakPreference, chunkMode, fill) => {
          const deltas = splitDeltas(text, sizes);
          const fast = stream(new BlockChunker({ ...bounds, breakPreference, chunkMode, fill }), deltas);
          const naive = stream(new NaiveChunker({ ...bounds, fill }, breakPreference, chunkMode === "newline"), deltas);
          expect(fast).toEqual(naive);
        },
      ),
      runs,
    );
  });
});

describe("BlockChunker: the delta split never changes the blocks", () => {
  // Model-sized deltas: a fixed size (20 characters among them) or a random cycle of sizes.
  const splitArb = fc.oneof(fc.constantFrom<number[]>([1], [7], [20], [20], [64]), deltaSizesArb);

  it("streamed in any deltas, the blocks equal those of the whole text pushed at once, then flushed", () => {
    fc.assert(
      fc.property(
        markdownArb,
        splitArb,
        boundsArb,
        preferenceArb,
        fc.constantFrom<ChunkMode>("length", "newline"),
        fc.boolean(),
        (text, sizes, bounds, breakPreference, chunkMode, fill) => {
          const options = { ...bounds, breakPreference, chunkMode, fill };
          const whole = stream(new BlockChunker(options), [text]);
          expect(stream(new BlockChunker(options), splitDeltas(text, sizes))).toEqual(whole);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("chunkText properties", () => {
  it("every message fits, is balanced and the messages spell the text, in both modes", () => {
    fc.assert(
      fc.property(
        markdownArb,
        fc.integer({ min: 40, max: 600 }),
        fc.constantFrom<ChunkMode>("length", "newline"),
        (text, maxChars, mode) => {
          expectWellFormed(text, chunkText(text, { maxChars, mode }), maxChars);
        },
      ),
      runs,
    );
  });
});
