// Writes openclaw.plugin.json from the built config schema (run after tsc by `pnpm build`).
import { writeFileSync } from "node:fs";
import { renderManifest } from "../dist/manifest.js";

const target = new URL("../openclaw.plugin.json", import.meta.url);
writeFileSync(target, renderManifest());
