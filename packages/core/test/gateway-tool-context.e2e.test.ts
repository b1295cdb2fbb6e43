// `openclaw context --detail` counts the gateway tool's schema in the owner's main session only,
// and the whole default toolset (web_search, browser, gateway; message once a channel runs).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
});
afterEach(() => cleanup());

interface ToolsJson {
  tools: { name: string; schemaChars: number; totalChars: number }[];
  toolsTotalChars: number;
}

async function toolsOf(session?: string): Promise<ToolsJson> {
  const result = await runCli(["context", "--detail", "--json", ...(session ? ["--session", session] : [])], { home });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as ToolsJson;
}

describe("openclaw context --detail and the gateway tool", () => {
  it("lists the gateway tool with its schema cost in the main session, and not in a stranger's session", async () => {
    const main = await toolsOf();
    const gateway = main.tools.find((t) => t.name === "gateway");
    expect(gateway?.schemaChars).toBeGreaterThan(200);
    expect(main.toolsTotalChars).toBe(main.tools.reduce((n, t) => n + t.totalChars, 0));

    const stranger = await toolsOf("agent:main:telegram:direct:12345");
    expect(stranger.tools.map((t) => t.name)).not.toContain("gateway");
    expect(stranger.tools.map((t) => t.name)).toContain("read");
  });
});

describe("openclaw context --detail and the default toolset", () => {
  it("offers web_search, browser and gateway, and message once a channel is configured, each counted", async () => {
    const bare = await toolsOf();
    const names = bare.tools.map((t) => t.name);
    for (const tool of ["web_search", "browser", "gateway", "web_fetch", "exec"]) expect(names).toContain(tool);
    expect(names).not.toContain("message");

    const loopback = fileURLToPath(new URL("../../testkit/loopback-plugin", import.meta.url));
    mkdirSync(path.join(home, ".openclaw"), { recursive: true });
    writeFileSync(
      path.join(home, ".openclaw", "openclaw.json"),
      JSON.stringify({ plugins: { load: { paths: [loopback] } }, channels: { loopback: {} } }),
    );
    const withChannel = await toolsOf();
    const message = withChannel.tools.find((t) => t.name === "message");
    expect(message?.schemaChars).toBeGreaterThan(100);
    expect(withChannel.toolsTotalChars).toBe(bare.toolsTotalChars + message!.totalChars);
  });
});
