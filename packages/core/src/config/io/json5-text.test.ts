import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { parseJson5Text } from "./json5-text.js";

/** What parseJson5Text reads, or the message of its problem. */
const read = (text: string) => {
  const r = parseJson5Text(text, "/cfg/openclaw.json");
  return r.ok ? { value: r.value } : { problem: r.problem.message };
};

describe("parseJson5Text reads what JSON5 reads (JSON with comments takes a faster path)", () => {
  const texts: Record<string, string> = {
    "JSON with line and block comments": '// top\n{ "a": 1, /* inline */ "b": "x // not a comment", "c": "/* nor this */" } // end',
    "a comment ended by a carriage return only": '{ "a": 1 // note\r, "b": 2\n}',
    "a comment ended by U+2028": '{ "a": 1 // note\u2028, "b": 2 }',
    "escaped quotes before a comment": '{ "a": "say \\"hi\\" // still text" } // comment',
    "single quotes hiding a comment marker": '{ "a": \'x // y\', "b": 1 }',
    "trailing commas and unquoted keys": "{ a: 1, b: [1, 2,], }",
    "a __proto__ key": '{ "__proto__": { "polluted": true }, "a": 1 }',
    "hex and Infinity": "{ a: 0x10, b: Infinity, c: .5 }",
  };
  for (const [name, text] of Object.entries(texts)) {
    it(name, () => {
      const { value } = read(text);
      expect(value).toEqual(JSON5.parse(text));
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value as object)).toEqual(Object.keys(JSON5.parse(text) as object));
    });
  }

  it("refuses an unterminated block comment with JSON5's message, though the rest is valid JSON", () => {
    expect(read('{ "a": 1 } /* never closed')).toEqual({
      problem: expect.stringMatching(/^invalid JSON5 at line 1, column \d+: invalid end of input/),
    });
  });

  it("reports a syntax error at JSON5's line and column", () => {
    expect(read('{\n  // c\n  "a": 1\n  "b": 2\n}').problem).toMatch(/^invalid JSON5 at line 4, column 3: invalid character '"'/);
  });
});
