import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/index.js";
import { fakeProviders, startFakeRuntime, type FakeRuntimeBox } from "./fake-runtime.js";

let box: FakeRuntimeBox;
beforeEach(async () => {
  box = await startFakeRuntime();
});
afterEach(() => box.close());

const GROUP = "agent:main:telegram:group:-100";
const OTHER_GROUP = "agent:main:telegram:group:-200";

/** A runtime whose default agent has `sandbox` under agents.defaults. */
function sandboxed(sandbox: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return box.runtime({ agents: { defaults: { model: "local/fake-model", workspace: box.ws, sandbox }, ...extra } });
}

/** Runs one turn in which the model calls `tool` with `args`; returns what the tool gave back. */
async function callTool(
  rt: ReturnType<FakeRuntimeBox["runtime"]>,
  sessionKey: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ result: string; isError: boolean }> {
  box.fake.enqueue([{ toolCall: { name: tool, arguments: args } }], [{ text: "ok" }]);
  const events: AgentEvent[] = [];
  const turn = await rt.runTurn({ message: `use ${tool}`, sessionKey, onEvent: (e) => events.push(e) });
  expect(turn.status).toBe("ok");
  const end = events.find((e) => e.type === "tool_end") as { result: string; isError: boolean } | undefined;
  if (!end) throw new Error(`no tool_end for ${tool}`);
  return { result: end.result, isError: end.isError };
}

const sandboxesDir = () => path.join(realpathSync(box.stateDir), "sandboxes");
/** The folder of a session-scoped sandbox, found by its readable prefix. */
function sessionFolder(prefix: string): string {
  const dir = path.join(sandboxesDir(), "sessions");
  const match = readdirSync(dir).filter((n) => n.startsWith(prefix));
  expect(match).toHaveLength(1);
  return path.join(dir, match[0]!);
}

describe("sandboxed sessions (mode non-main, scope session)", () => {
  it("keep the main session in the agent workspace and give a group session its own seeded folder", async () => {
    const rt = sandboxed({ mode: "non-main" });
    await callTool(rt, "agent:main:main", "write", { path: "main.txt", content: "from main" });
    expect(readFileSync(path.join(box.ws, "main.txt"), "utf8")).toBe("from main");

    const wrote = await callTool(rt, GROUP, "write", { path: "group.txt", content: "from the group" });
    expect(wrote.isError).toBe(false);
    expect(existsSync(path.join(box.ws, "group.txt"))).toBe(false);
    const folder = sessionFolder("agent-main-telegram-group-100-");
    expect(readFileSync(path.join(folder, "group.txt"), "utf8")).toBe("from the group");
    // Seeded from the agent's bootstrap files (not MEMORY.md).
    expect(readFileSync(path.join(folder, "AGENTS.md"), "utf8")).toBe(readFileSync(path.join(box.ws, "AGENTS.md"), "utf8"));
    // The prompt names the sandbox folder as the working directory.
    const system = box.fake.lastRequest()!.body.messages[0].content as string;
    expect(system).toContain(`Your working directory is ${folder}.`);
    expect(system).toContain("This session is sandboxed (agents.defaults.sandbox)");
  });

  it("run exec in the sandbox folder", async () => {
    const rt = sandboxed({ mode: "non-main" });
    const pwd = await callTool(rt, GROUP, "exec", { command: "pwd" });
    expect(pwd.isError).toBe(false);
    expect(pwd.result).toContain(sessionFolder("agent-main-telegram-group-100-"));
    const mainPwd = await callTool(rt, "agent:main:main", "exec", { command: "pwd" });
    expect(mainPwd.result).toContain(realpathSync(box.ws));
  });

  it("keep one session's folder from another's, and refuse paths that leave it", async () => {
    const rt = sandboxed({ mode: "non-main" });
    await callTool(rt, GROUP, "write", { path: "secret.txt", content: "group one only" });
    const other = await callTool(rt, OTHER_GROUP, "read", { path: "secret.txt" });
    expect(other.isError).toBe(true);
    expect(other.result).toContain("does not exist");
    const dotdot = await callTool(rt, OTHER_GROUP, "read", { path: "../agent-main-telegram-group-100/secret.txt" });
    expect(dotdot).toMatchObject({ isError: true });
    expect(dotdot.result).toContain('uses ".." to point outside the workspace');
    const outside = await callTool(rt, OTHER_GROUP, "write", { path: "/etc/openclaw-sandbox-test.txt", content: "x" });
    expect(outside.isError).toBe(true);
    expect(outside.result).toContain("is outside the workspace");
  });
});

describe("workspaceAccess", () => {
  it('"rw" lets a sandboxed session read and write the agent workspace by absolute path', async () => {
    const rt = sandboxed({ mode: "non-main", workspaceAccess: "rw" });
    await rt.runTurn({ message: "hello" });
    const file = path.join(box.ws, "shared-notes.md");
    const wrote = await callTool(rt, GROUP, "write", { path: file, content: "written from the group" });
    expect(wrote.isError).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("written from the group");
  });

  it('"ro" lets it read the agent workspace but refuses writes there, naming the key', async () => {
    const rt = sandboxed({ mode: "non-main", workspaceAccess: "ro" });
    await rt.runTurn({ message: "hello" });
    writeFileSync(path.join(box.ws, "facts.md"), "the sky is blue");
    const read = await callTool(rt, GROUP, "read", { path: path.join(box.ws, "facts.md") });
    expect(read).toMatchObject({ isError: false });
    expect(read.result).toContain("the sky is blue");
    const write = await callTool(rt, GROUP, "write", { path: path.join(box.ws, "facts.md"), content: "changed" });
    expect(write.isError).toBe(true);
    expect(write.result).toContain('agents.defaults.sandbox.workspaceAccess is "ro"');
    expect(readFileSync(path.join(box.ws, "facts.md"), "utf8")).toBe("the sky is blue");
    const edit = await callTool(rt, GROUP, "edit", { path: path.join(box.ws, "facts.md"), old_string: "blue", new_string: "red" });
    expect(edit.isError).toBe(true);
    expect(readFileSync(path.join(box.ws, "facts.md"), "utf8")).toBe("the sky is blue");
  });

  it('"none" gives the sandboxed session no access to the agent workspace', async () => {
    const rt = sandboxed({ mode: "non-main", workspaceAccess: "none" });
    await rt.runTurn({ message: "hello" });
    writeFileSync(path.join(box.ws, "facts.md"), "private");
    const read = await callTool(rt, GROUP, "read", { path: path.join(box.ws, "facts.md") });
    expect(read.isError).toBe(true);
    expect(read.result).toContain("is outside the workspace");
    expect(box.fake.lastRequest()!.body.messages[0].content).toContain("The agent's main workspace cannot be reached from here.");
  });
});

describe("scope", () => {
  it('"agent" gives all sandboxed sessions of an agent one folder', async () => {
    const rt = sandboxed({ mode: "non-main", scope: "agent" });
    await callTool(rt, GROUP, "write", { path: "team.txt", content: "shared by the agent's groups" });
    const read = await callTool(rt, OTHER_GROUP, "read", { path: "team.txt" });
    expect(read.result).toContain("shared by the agent's groups");
    expect(existsSync(path.join(sandboxesDir(), "agents", "main", "team.txt"))).toBe(true);
    expect(existsSync(path.join(box.ws, "team.txt"))).toBe(false);
  });

  it('"shared" gives every agent\'s sandboxed sessions one folder, under a custom workspaceRoot, and mode "all" includes main', async () => {
    const root = path.join(box.stateDir, "boxes");
    const sandbox = { mode: "all", scope: "shared", workspaceRoot: root };
    const rt = box.runtime({
      agents: {
        defaults: { model: "local/fake-model", workspace: box.ws, sandbox },
        entries: { main: { default: true }, work: { workspace: path.join(box.stateDir, "ws-work") } },
      },
      models: fakeProviders(box.fake),
    });
    await callTool(rt, "agent:main:main", "write", { path: "everyone.txt", content: "one folder for all" });
    expect(existsSync(path.join(box.ws, "everyone.txt"))).toBe(false);
    expect(readFileSync(path.join(root, "shared", "everyone.txt"), "utf8")).toBe("one folder for all");
    box.fake.enqueue([{ toolCall: { name: "read", arguments: { path: "everyone.txt" } } }], [{ text: "ok" }]);
    const events: AgentEvent[] = [];
    await rt.runTurn({ agentId: "work", message: "read it", onEvent: (e) => events.push(e) });
    expect(events.find((e) => e.type === "tool_end")).toMatchObject({
      isError: false,
      result: expect.stringContaining("one folder for all"),
    });
  });

  it("an agent's own sandbox setting replaces the defaults", async () => {
    const rt = box.runtime({
      agents: {
        defaults: { model: "local/fake-model", workspace: box.ws, sandbox: { mode: "non-main" } },
        entries: { main: { default: true, sandbox: { mode: "off" } } },
      },
      models: fakeProviders(box.fake),
    });
    await callTool(rt, GROUP, "write", { path: "plain.txt", content: "not sandboxed" });
    expect(readFileSync(path.join(box.ws, "plain.txt"), "utf8")).toBe("not sandboxed");
  });
});
