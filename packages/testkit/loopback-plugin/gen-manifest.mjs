// Regenerates openclaw.plugin.json from the zod schema of channels.loopback (run after building
// @openclaw/testkit: `node loopback-plugin/gen-manifest.mjs`). A testkit test fails when it is stale.
import { writeFileSync } from "node:fs";
import { z } from "zod";
import { loopbackChannelConfig } from "../dist/loopback/config.js";

const configSchema = z.toJSONSchema(loopbackChannelConfig("loopback").schema, { unrepresentable: "any" });
const manifest = { id: "loopback", channels: ["loopback"], configSchema };
writeFileSync(new URL("./openclaw.plugin.json", import.meta.url), `${JSON.stringify(manifest, null, 2)}\n`);
