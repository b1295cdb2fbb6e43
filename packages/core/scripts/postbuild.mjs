// After tsc: makes the CLI entry executable (tsc keeps the shebang but not the mode), and copies
// the built Control UI (packages/control-ui/dist) into dist/control-ui, where the gateway serves
// it from. Without a UI build the gateway answers its page with how to build it.
import { chmodSync, cpSync, existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(entry)) chmodSync(entry, 0o755);

const uiBuild = fileURLToPath(new URL("../../control-ui/dist/", import.meta.url));
const uiTarget = fileURLToPath(new URL("../dist/control-ui/", import.meta.url));
rmSync(uiTarget, { recursive: true, force: true });
if (existsSync(`${uiBuild}index.html`)) cpSync(uiBuild, uiTarget, { recursive: true });
