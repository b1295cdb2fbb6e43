import { findCodeFences } from "@openclaw/plugin-sdk";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeClock } from "./__fixtures__/fake-clock.js";
import { FakePlatform, TARGET, nonPrefixHistory, reassemblyError } from "./__fixtures__/fake-outbound.js";
import { PreviewController, SendBudget } from "./index.js";

/** Cases fast-check once found around code fences (see the file's comment); they run first, every run. */
const fenceExamples = (
  JSON.parse(readFileSync(new URL("./__fixtures__/fence-rollover-examples.json", import.meta.url), "utf8")) as {
    examples: Array<[string, number, number]>;
  }
).examples;

/** Reply text from words, long unbroken runs, sentence ends, newlines and paragraph breaks (no fences). */
const replyText = fc
  .array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom("the", "preview", "budget", "a", "message", "delivery", "quota", "édit", "😀") },
      { weight: 6, arbitrary: fc.constant(" ") },
      { weight: 2, arbitrary: fc.constantFrom(". ", "! ", "? ") },
      { weight: 2, arbitrary: fc.constant("\n") },
      { weight: 1, arbitrary: fc.constant("\n\n") },
      { weight: 1, arbitrary: fc.integer({ min: 20, max: 300 }).map((n) => "x".repeat(n)) },
      { weight: 1, arbitrary: fc.constantFrom("- item\n", "1. first\n", "(a [link](x y))") },
    ),
    { maxLength: 700, size: "max" },
  )
  .map((parts) => parts.join(""));

const scenario = fc.record({
  text: replyText,
  editLimit: fc.integer({ min: 40, max: 700 }),
  minInitialChars: fc.integer({ min: 1, max: 60 }),
  throttleMs: fc.integer({ min: 250, max: 1500 }),
  latencyMs: fc.constantFrom(0, 0, 30, 400),
  cuts: fc.array(fc.integer({ min: 1, max: 9999 }), { maxLength: 60, size: "max" }),
  pauses: fc.array(fc.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 10 }),
  extendFinal: fc.boolean(),
  /** A window in which every call answers 429. */
  storm: fc.option(fc.record({ from: fc.integer({ min: 0, max: 8000 }), length: fc.integer({ min: 100, max: 8000 }) })),
});

describe("PreviewController (property)", () => {
  it("the visible messages hold the final text exactly once, and no message ever showed text it later lost (429 storms included)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const clock = new FakeClock();
        const platform = new FakePlatform(clock, { latencyMs: s.latencyMs });
        const budget = new SendBudget({ clock });
        const preview = new PreviewController({
          outbound: platform.outbound,
          target: TARGET,
          budget,
          chatKey: "chat",
          textLimit: s.editLimit,
          editLimit: s.editLimit,
          minInitialChars: s.minInitialChars,
          throttleMs: s.throttleMs,
          format: "markdown",
          idempotencyKey: "run",
          signal: new AbortController().signal,
          clock,
        });
        if (s.storm !== null) {
          const { from, length } = s.storm;
          clock.setTimeout(() => (platform.stormUntil = clock.now() + length), from);
        }
        const ends = [...new Set(s.cuts.map((c) => Math.floor((c / 10_000) * s.text.length)))].sort((a, b) => a - b);
        for (const [i, end] of [...ends, s.text.length].entries()) {
          preview.update(s.text.slice(0, end));
          await clock.advance(s.pauses[i % s.pauses.length]!);
        }
        const finalText = s.extendFinal ? `${s.text}\n\nOne more closing line.` : s.text;
        const result = await clock.run(preview.finalize(finalText), 3_600_000, 500);

        const visible = platform.visible();
        expect(reassemblyError(visible, finalText)).toBeNull();
        expect(nonPrefixHistory(platform.messages)).toBeNull();
        expect(visible.every((m) => m.length <= s.editLimit)).toBe(true);
        expect(platform.count("delete")).toBe(0);
        expect(result.messageIds).toEqual(platform.messages.map((m) => m.id));
        const firstFinal = platform.calls.findIndex((c) => c.priority === "final");
        if (firstFinal >= 0) expect(platform.calls.slice(firstFinal).every((c) => c.priority === "final")).toBe(true);
        const calls = platform.calls.length;
        await clock.advance(5000);
        expect(platform.calls.length).toBe(calls);
      }),
      { numRuns: 150 },
    );
  });

  it("splits inside long code fences close and reopen the fence, and the content still appears exactly once", async () => {
    const codeBlock = fc
      .array(fc.constantFrom("const a = 1;", "  return value;", "if (x) {", "}", "// note", ""), { minLength: 1, maxLength: 120 })
      .map((lines) => `\n\`\`\`ts\n${lines.join("\n")}\n\`\`\`\n`);
    const withCode = fc
      .array(
        fc.oneof(
          replyText.map((t) => t.slice(0, 400)),
          codeBlock,
        ),
        { minLength: 1, maxLength: 8 },
      )
      .map((parts) => parts.join("\n"));
    await fc.assert(
      fc.asyncProperty(withCode, fc.integer({ min: 80, max: 600 }), fc.integer({ min: 20, max: 300 }), async (text, limit, step) => {
        const clock = new FakeClock();
        const platform = new FakePlatform(clock);
        const preview = new PreviewController({
          outbound: platform.outbound,
          target: TARGET,
          budget: new SendBudget({ clock }),
          chatKey: "chat",
          textLimit: limit,
          format: "markdown",
          idempotencyKey: "run",
          signal: new AbortController().signal,
          clock,
        });
        for (let end = step; end < text.length + step; end += step) {
          preview.update(text.slice(0, end));
          await clock.advance(300);
        }
        await clock.run(preview.finalize(text), 3_600_000, 500);
        const visible = platform.visible();
        const content = (s: string) => s.replace(/^ {0,3}(```|~~~).*$/gm, "").replace(/\s+/g, "");
        expect(content(visible.join("\n"))).toBe(content(text));
        expect(visible.every((m) => m.length <= limit)).toBe(true);
        expect(visible.filter((m) => findCodeFences(m).some((fence) => !fence.closed))).toEqual([]);
        expect(nonPrefixHistory(platform.messages)).toBeNull();
      }),
      { numRuns: 100, examples: fenceExamples },
    );
  });
});
