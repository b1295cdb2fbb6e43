// `openclaw context --detail` counts the gateway tool's schema in the owner's main session only.
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
