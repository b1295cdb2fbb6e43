import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { htmlToPlain, markdownToTelegramHtml, splitTelegramHtml, visibleLength } from "../src/index.js";

/** Checks that every tag opened in `html` is closed in order (what Telegram's parser requires). */
function balanced(html: string): boolean {
  const stack: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z-]+)[^>]*>/g)) {
    if (match[1] === "") stack.push(match[2]!);
    else if (stack.pop() !== match[2]) return false;
  }
  return stack.length === 0;
}

describe("markdownToTelegramHtml", () => {
  it("maps Markdown onto Telegram's tags and escapes the rest", () => {
    expect(markdownToTelegramHtml("**b** *i* ~~s~~ `c<d>` a & b < c")).toBe(
      "<b>b</b> <i>i</i> <s>s</s> <code>c&lt;d&gt;</code> a &amp; b &lt; c",
    );
    expect(markdownToTelegramHtml("```python\nprint('<hi>')\n```")).toBe(
      "<pre><code class=\"language-python\">print('&lt;hi&gt;')</code></pre>",
    );
    expect(markdownToTelegramHtml("```\nplain\n```")).toBe("<pre><code>plain</code></pre>");
    expect(markdownToTelegramHtml('[x](https://a.b/?q=1&r="2")')).toBe('<a href="https://a.b/?q=1&amp;r=&quot;2&quot;">x</a>');
    expect(markdownToTelegramHtml("[x](javascript:alert(1))")).toBe("x");
    expect(markdownToTelegramHtml("# Title\n\ntext")).toBe("<b>Title</b>\n\ntext");
    expect(markdownToTelegramHtml("> quoted\n> > nested")).toBe("<blockquote>quoted\nnested</blockquote>");
    expect(markdownToTelegramHtml("- one\n- two\n  1. sub")).toBe("• one\n• two\n  1. sub");
    expect(markdownToTelegramHtml("- [x] done\n- [ ] todo **b**")).toBe("• ☑ done\n• ☐ todo <b>b</b>");
    expect(markdownToTelegramHtml("<b>raw</b> &amp; \\*star\\*")).toBe("&lt;b&gt;raw&lt;/b&gt; &amp; *star*");
    expect(markdownToTelegramHtml("| a | bb |\n|---|---|\n| 1 | 2 |")).toBe("<pre>a | bb\n--|---\n1 | 2</pre>");
  });

  it("keeps the visible text no longer than the source", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("a", " ", "\n", "*", "_", "`", "~", "#", ">", "-", "1", ".", "[", "]", "(", ")", "<", "&", "\\"),
        }),
        (md) => {
          const html = markdownToTelegramHtml(md);
          expect(balanced(html)).toBe(true);
          expect(visibleLength(html)).toBeLessThanOrEqual(md.length);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("splitTelegramHtml", () => {
  it("closes and reopens tags (with attributes) across chunks", () => {
    const html = `<b>${"word ".repeat(10)}</b><pre><code class="language-js">${"x = 1;\n".repeat(5)}</code></pre>`;
    const chunks = splitTelegramHtml(html, 24);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(balanced(chunk)).toBe(true);
      expect(visibleLength(chunk)).toBeLessThanOrEqual(24);
    }
    expect(chunks[1]!.startsWith("<b>")).toBe(true);
    const code = chunks.filter((c) => c.includes("x = 1"));
    expect(code.length).toBeGreaterThan(1);
    for (const chunk of code) expect(chunk.indexOf('<pre><code class="language-js">')).toBeLessThan(chunk.indexOf("x = 1"));
    expect(code.at(-1)!.startsWith('<pre><code class="language-js">')).toBe(true);
  });

  it("never cuts inside a character reference or a surrogate pair", () => {
    const html = "&amp;".repeat(10) + "😀".repeat(10);
    const chunks = splitTelegramHtml(html, 3);
    for (const chunk of chunks) {
      expect(chunk).not.toMatch(/&[a-z]*$/);
      expect(visibleLength(chunk)).toBeLessThanOrEqual(3);
    }
    expect(chunks.map(htmlToPlain).join("")).toBe("&".repeat(10) + "😀".repeat(10));
  });

  it("prefers newlines, then spaces, and loses no text (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "*", "`", "_", "&", "<"), maxLength: 400 }),
        fc.integer({ min: 8, max: 64 }),
        (md, limit) => {
          const html = markdownToTelegramHtml(md);
          const chunks = splitTelegramHtml(html, limit);
          for (const chunk of chunks) {
            expect(balanced(chunk)).toBe(true);
            expect(visibleLength(chunk)).toBeLessThanOrEqual(limit);
          }
          expect(chunks.map(htmlToPlain).join("").replace(/\s+/g, "")).toBe(htmlToPlain(html).replace(/\s+/g, ""));
        },
      ),
      { numRuns: 300 },
    );
    const lines = splitTelegramHtml("aaaa bbbb\ncccc dddd eeee", 20);
    expect(lines.map(htmlToPlain)).toEqual(["aaaa bbbb\n", "cccc dddd eeee"]);
  });
});
