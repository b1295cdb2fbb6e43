import { describe, expect, it } from "vitest";
import { decodeCharacterReferences } from "./char-references.js";

describe("decodeCharacterReferences", () => {
  it("resolves the named and numeric references Markdown parsers leave in text", () => {
    expect(decodeCharacterReferences("Tom &amp; Jerry &LT;3 &quot;hi&quot; &#39;x&#39; &#x1F600;")).toBe(`Tom & Jerry <3 "hi" 'x' 😀`);
  });

  it("leaves unknown names and impossible code points as written", () => {
    expect(decodeCharacterReferences("&copy; &#0; &#x110000; & alone")).toBe("&copy; &#0; &#x110000; & alone");
  });
});
