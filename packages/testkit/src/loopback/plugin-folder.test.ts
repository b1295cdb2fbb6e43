import { readFileSync } from "node:fs";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { loopbackChannelConfig } from "./config.js";

const folder = new URL("../../loopback-plugin/", import.meta.url);
const read = (file: string) => JSON.parse(readFileSync(new URL(file, folder), "utf8"));

describe("loopback-plugin folder", () => {
  it("declares itself as the loopback channel plugin", () => {
    expect(read("package.json").openclaw.plugin).toEqual({
      id: "loopback",
      kind: "channel",
      channels: ["loopback"],
      entry: "./index.js",
      configEntry: "./config.js",
      sdk: "^0.1.0",
    });
  });

  it("ships the JSON Schema of channels.loopback generated from the zod schema", () => {
    const manifest = read("openclaw.plugin.json");
    expect(manifest.id).toBe("loopback");
    expect(manifest.configSchema).toEqual(z.toJSONSchema(loopbackChannelConfig().schema, { unrepresentable: "any" }));
  });
});
