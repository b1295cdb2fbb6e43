// scripts/gen-manifest.mjs: writes openclaw.plugin.json from the compiled config entry (`npm run build` runs it after tsc).
import { writeFileSync } from "node:fs";
import { z } from "zod";
import chatterboxConfig from "../dist/config.js";

const configSchema = z.toJSONSchema(chatterboxConfig.schema, { io: "input", unrepresentable: "any" });
const manifest = { id: "chatterbox", channels: ["chatterbox"], configSchema };
writeFileSync(new URL("../openclaw.plugin.json", import.meta.url), `${JSON.stringify(manifest, null, 2)}\n`);
