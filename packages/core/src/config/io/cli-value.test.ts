import { describe, expect, it } from "vitest";
import { UserError } from "../paths.js";
import { parseCliValue } from "./index.js";

describe("parseCliValue", () => {
  it.each<[string, unknown]>([
    ["true", true],
    ["false", false],
    ["null", null],
    ["42", 42],
    ["-1.5", -1.5],
    ["0x10", 16],
    ['"quoted"', "quoted"],
    ["'single'", "single"],
    ['"42"', "42"],
    ['{mode: "partial"}', { mode: "partial" }],
    ["{ block: { enabled: true, }, }", { block: { enabled: true } }],
    ['["a", 2]', ["a", 2]],
    ["openai/gpt-4o", "openai/gpt-4o"],
    ["partial", "partial"],
    ["hello world", "hello world"],
    ["1.2.3", "1.2.3"],
    ["", ""],
  ])("parses %j", (input, expected) => {
    expect(parseCliValue(input)).toEqual(expected);
  });

  it.each(["{mode: partial", "[1, 2", '"unterminated', "{mode: partial mode}"])(
    "rejects broken JSON5 %j instead of storing it as a string",
    (input) => {
      expect(() => parseCliValue(input)).toThrow(UserError);
    },
  );

  it("rejects numbers without a JSON form", () => {
    expect(() => parseCliValue("NaN")).toThrow(/not a finite number/);
    expect(() => parseCliValue("Infinity")).toThrow(UserError);
  });

  it("rejects a value nested past the config's 64 levels, and accepts one at the limit", () => {
    expect(parseCliValue(`${"[".repeat(64)}${"]".repeat(64)}`)).toBeInstanceOf(Array);
    expect(() => parseCliValue(`${"[".repeat(5000)}${"]".repeat(5000)}`)).toThrow(/more than 64 levels deep/);
  });
});
