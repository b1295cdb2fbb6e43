import { describe, expect, it } from "vitest";
import { findCodeFences } from "./code-fences.js";

describe("findCodeFences", () => {
  it("finds a closed fence with its opening line and closer", () => {
    const text = "intro\n```ts\nconst a = 1;\n```\nafter";
    const [fence] = findCodeFences(text);
    expect(fence).toEqual({ start: 6, openLineEnd: 11, end: text.indexOf("\nafter"), closed: true, openLine: "```ts", close: "```" });
  });

  it("an unclosed fence runs to the end, and a longer closing run closes it", () => {
    expect(findCodeFences("~~~~\ncode\n~~~").map((f) => [f.closed, f.end])).toEqual([[false, 13]]);
    expect(findCodeFences("```\ncode\n`````\nx").map((f) => f.closed)).toEqual([true]);
  });

  it("a run with an info string does not close a fence, and indented fences keep their indent", () => {
    const fences = findCodeFences("  ```py\nx\n```ts\n  ```\ny\n```");
    expect(fences.map((f) => [f.openLine, f.close, f.closed])).toEqual([
      ["  ```py", "  ```", true],
      ["```", "```", false],
    ]);
  });

  it("the text may end on the opening line", () => {
    expect(findCodeFences("a\n```js")).toEqual([{ start: 2, openLineEnd: -1, end: 7, closed: false, openLine: "```js", close: "```" }]);
  });
});
