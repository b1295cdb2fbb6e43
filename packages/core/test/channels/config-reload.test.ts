// Config hot reload through a real gateway: the owner's `gateway` tool and edits of the file
// itself, with the loopback channel and the fake model. Every wait is on a log line or a chat.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startChannelHarness, type ChannelHarness } from "./harness.js";

let h: ChannelHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const OWNER_ONLY = { dmPolicy: "allowlist", allowFrom: ["owner"] };
const toolNames = (request: { body: any }) => (request.body.tools ?? []).map((t: any) => t.function?.name ?? t.name);

function readConfig(harness: ChannelHarness): Record<string, any> {
  return JSON.parse(readFileSync(harness.paths.configPath, "utf8"));
}

/** Writes the config the way an editor saving atomically does: a new file renamed over the old one. */
function saveAtomically(harness: ChannelHarness, config: unknown): void {
  const tmp = `${harness.paths.configPath}.editor-tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2));
  renameSync(tmp, harness.paths.configPath);
}

describe("config reload in a running gateway", () => {
  it("the owner's gateway tool lets a stranger in: patched with a .bak, reloaded, the account restarted, no gateway restart", async () => {
    h = await startChannelHarness({ channel: OWNER_ONLY });
    const { platform } = h;
    const portBefore = h.gateway.port;

    await platform.userSays({ sender: "stranger", text: "hello? anyone?" });
    const applied = h.nextLog("config reload: applied channels.loopback", "the reload");
    const restarted = h.nextLog("config reload: restarted account loopback:default", "the account restart");
    h.model.enqueue(
      [
        {
          toolCall: {
            name: "gateway",
            arguments: { action: "config.patch", patch: { channels: { loopback: { allowFrom: ["owner", "stranger"] } } } },
          },
        },
      ],
      [{ text: "The stranger may write now." }],
      [{ text: "Welcome, stranger." }],
    );
    await platform.userSays({ sender: "owner", text: "please let the stranger in" });
    await h.until("owner", (v) => v.texts.includes("The stranger may write now."), "the owner's answer");
    expect(platform.chatView("stranger").messages).toEqual([]); // dropped before the reload
    expect(toolNames(h.model.requests[0]!)).toContain("gateway");
    await applied; // by the tool's reload (or the file watcher, had it come first)
    expect(JSON.stringify(h.model.requests[1]!.body.messages)).toContain(`Wrote ${h.paths.configPath}`);

    expect(readConfig(h).channels.loopback.allowFrom).toEqual(["owner", "stranger"]);
    expect(JSON.parse(readFileSync(`${h.paths.configPath}.bak`, "utf8")).channels.loopback.allowFrom).toEqual(["owner"]);
    await restarted; // after the owner's reply was delivered
    await platform.waitFor(() => platform.connectedBots().includes("default"), { what: "the restarted bot" });

    await platform.userSays({ sender: "stranger", text: "am I in now?" });
    await h.until("stranger", (v) => v.texts.includes("Welcome, stranger."), "the stranger's answer");
    // Listed in allowFrom, the stranger is now an owner too: the main session, with its gateway tool.
    expect(toolNames(h.model.requests[2]!)).toContain("gateway");
    expect(h.gateway.port).toBe(portBefore);
  });

  it("refuses an invalid patch from the tool with the schema error and keeps the file; other sessions get no gateway tool", async () => {
    h = await startChannelHarness({ channel: { dmPolicy: "open", allowFrom: ["owner", "*"] } });
    h.model.enqueue([{ text: "hi visitor" }]);
    await h.platform.userSays({ sender: "visitor", text: "what can you change?" });
    await h.until("visitor", (v) => v.texts.includes("hi visitor"), "the visitor's answer");
    expect(toolNames(h.model.requests[0]!)).not.toContain("gateway"); // a session of their own
    expect(toolNames(h.model.requests[0]!)).toContain("read");

    const before = readFileSync(h.paths.configPath, "utf8");
    h.model.enqueue(
      [
        {
          toolCall: {
            name: "gateway",
            arguments: { action: "config.patch", set: [{ path: "agents.defaults.timeoutSeconds", value: "soon" }] },
          },
        },
      ],
      [{ text: "That did not work." }],
    );
    await h.platform.userSays({ sender: "owner", text: "set the timeout to soon" });
    await h.until("owner", (v) => v.texts.includes("That did not work."), "the owner's answer");
    expect(toolNames(h.model.requests[1]!)).toContain("gateway");
    const toolResult = JSON.stringify(h.model.requests[2]!.body.messages);
    expect(toolResult).toContain("Not written");
    expect(toolResult).toContain("agents.defaults.timeoutSeconds");
    expect(readFileSync(h.paths.configPath, "utf8")).toBe(before);
    expect(existsSync(`${h.paths.configPath}.bak`)).toBe(false);
  });

  it("an edited file changes the model of the next turn without a restart (atomic save)", async () => {
    h = await startChannelHarness({ channel: OWNER_ONLY });
    const config = readConfig(h);
    config.models.providers.local.models.push({ id: "other" });
    const reloaded = h.nextLog("config reload: applied models", "the first reload");
    saveAtomically(h, config);
    await reloaded;

    h.model.enqueue([{ text: "from llama" }], [{ text: "from other" }]);
    await h.platform.userSays({ sender: "owner", text: "first" });
    await h.until("owner", (v) => v.texts.includes("from llama"), "the first answer");
    config.agents.defaults.model = "local/other";
    const second = h.nextLog("config reload: applied agents", "the model change");
    saveAtomically(h, config);
    await second;
    await h.platform.userSays({ sender: "owner", text: "second" });
    await h.until("owner", (v) => v.texts.includes("from other"), "the second answer");
    expect(h.model.requests.map((r) => r.body.model)).toEqual(["llama", "other"]);
    expect(h.logs.some((l) => l.includes("restarted account"))).toBe(false); // channels did not change
  });

  it("an invalid edit keeps the running config and logs why", async () => {
    h = await startChannelHarness({ channel: OWNER_ONLY });
    const config = readConfig(h);
    config.agents.defaults.model = "local/other";
    config.agents.defaults.timeoutSeconds = "soon";
    const refused = h.nextLog("is invalid", "the refused reload");
    writeFileSync(h.paths.configPath, JSON.stringify(config, null, 2)); // an edit in place
    const line = await refused;
    expect(line).toMatch(/^warn /);
    expect(line).toContain(h.paths.configPath);
    expect(line).toContain("keeps running on the previous config");
    expect(line).toContain("agents.defaults.timeoutSeconds");

    h.model.enqueue([{ text: "still here" }]);
    await h.platform.userSays({ sender: "owner", text: "are you there?" });
    await h.until("owner", (v) => v.texts.includes("still here"), "the answer");
    expect(h.model.requests[0]!.body.model).toBe("llama");
  });

  it("a port change is logged as needing a restart; the gateway keeps its port", async () => {
    h = await startChannelHarness({ channel: OWNER_ONLY });
    const port = h.gateway.port;
    const config = readConfig(h);
    config.gateway = { port: port === 45999 ? 45998 : 45999 };
    const logged = h.nextLog("needs a restart", "the restart notice");
    saveAtomically(h, config);
    const line = await logged;
    expect(line).toContain("gateway.port");
    expect(h.gateway.port).toBe(port);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.ok).toBe(true);
  });
});
