// Injected into extension bundles (scripts/bundle-extension.mjs): the CommonJS `__dirname` and
// `__filename` that bundled libraries use, as the bundle's own folder and file (dist/bundle/).
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const __openclawFilename = fileURLToPath(import.meta.url);
export const __openclawDirname = dirname(__openclawFilename);
