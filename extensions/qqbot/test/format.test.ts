// What a QQ user reads when the bot may not send markdown: the model's Markdown as plain text.
import { describe, expect, it } from "vitest";
import { markdownToPlain } from "../src/format/plain.js";

describe("markdownToPlain", () => {
  it("drops emphasis and code marks, keeps link addresses, bullets, numbers, quotes and code", () => {
    const markdown = [
      "# Plan",
      "",
      "Use **bold** and _soft_ words, `npm test` and [the docs](https://example.com/docs).",
      "",
      "- first",
      "- second with **weight**",
      "",
      "3. three",
      "4. four",
      "",
      "> quoted **text**",
      "",
      "```sh",
      "echo **not bold**",
      "```",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
    ].join("\n");
    expect(markdownToPlain(markdown)).toBe(
      [
        "Plan",
        "",
        "Use bold and soft words, npm test and the docs (https://example.com/docs).",
        "",
        "- first\n- second with weight",
        "",
        "3. three\n4. four",
        "",
        "> quoted text",
        "",
        "echo **not bold**",
        "",
        "a | b\n1 | 2",
      ].join("\n"),
    );
  });

  it("leaves text without Markdown as it was, entities decoded", () => {
    expect(markdownToPlain("Tom & Jerry <3, 5 > 4")).toBe("Tom & Jerry <3, 5 > 4");
    expect(markdownToPlain("line one\nline two")).toBe("line one\nline two");
  });
});
