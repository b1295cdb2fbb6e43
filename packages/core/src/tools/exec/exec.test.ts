import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "../__fixtures__/context.js";
import { createExecTool, createProcessRegistry, createProcessTool, type ProcessRegistry, type ToolContext } from "../index.js";

let box: TestSandbox;
let ctx: ToolContext;
let processes: ProcessRegistry;
let exec: ReturnType<typeof createExecTool>;
let proc: ReturnType<typeof createProcessTool>;

beforeEach(() => {
  box = makeSandbox();
  ctx = makeCtx(box);
  processes = createProcessRegistry();
  exec = createExecTool(processes);
  proc = createProcessTool(processes);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await processes.dispose();
  box.cleanup();
});

/** Alive and not a zombie (an unreaped child counts as dead). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe("exec", () => {
  it("runs in the workspace and reports the exit code", async () => {
    const res = await exec.execute({ command: "pwd; echo out; echo err >&2" }, ctx);
    expect(res.isError).toBeFalsy();
    expect(res.content).toBe(`${box.ws}\nout\nerr\n\n[exit code 0]`);
    expect(res.details).toMatchObject({ exitCode: 0, timedOut: false });
  });

  it("marks a non-zero exit as an error", async () => {
    const res = await exec.execute({ command: "echo nope; exit 3" }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toBe("nope\n\n[exit code 3]");
    expect(res.details).toMatchObject({ exitCode: 3 });
  });

  it("runs in a workdir inside the workspace and refuses one outside", async () => {
    mkdirSync(path.join(box.ws, "sub"));
    expect((await exec.execute({ command: "pwd", workdir: "sub" }, ctx)).content).toContain(path.join(box.ws, "sub"));
    const res = await exec.execute({ command: "pwd", workdir: "../outside" }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("outside the workspace");
  });

  it("kills the whole process tree on timeout", async () => {
    const pidFile = path.join(box.ws, "child.pid");
    const res = await exec.execute({ command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout: 0.5 }, ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("[timed out after 0.5s; the process tree was killed]");
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(await waitUntil(() => !isAlive(child))).toBe(true);
  });

  it("caps the timeout at tools.exec.timeoutSeconds", async () => {
    const capped = { ...ctx, config: makeConfig({ tools: { exec: { timeoutSeconds: 1 } } }) };
    const res = await exec.execute({ command: "sleep 20", timeout: 600 }, capped);
    expect(res.content).toContain("timed out after 1s");
  });

  it("keeps the head and tail of long output with a notice", async () => {
    const small = { ...ctx, config: makeConfig({ tools: { exec: { maxOutputChars: 100 } } }) };
    const res = await exec.execute({ command: "echo START; seq 1 5000; echo END" }, small);
    expect(res.content.startsWith("START\n1\n2")).toBe(true);
    expect(res.content).toMatch(/characters of output omitted \(limit tools\.exec\.maxOutputChars = 100\)/);
    expect(res.content).toContain("4999\n5000\nEND\n\n[exit code 0]");
    expect(res.details).toMatchObject({ truncated: true });
  });

  it("stops the command when the run is aborted", async () => {
    const controller = new AbortController();
    const pending = exec.execute({ command: "echo started; sleep 30" }, { ...ctx, signal: controller.signal });
    controller.abort();
    const res = await pending;
    expect(res.isError).toBe(true);
    expect(res.content).toContain("[aborted; the process tree was killed]");
  });

  it("returns the normal result when a yieldMs command finishes in time", async () => {
    const res = await exec.execute({ command: "echo quick", yieldMs: 10_000 }, ctx);
    expect(res.content).toBe("quick\n\n[exit code 0]");
    expect(processes.list()).toHaveLength(0);
  });
});

describe("background jobs and the process tool", () => {
  it("starts a job, polls new output until it ends, then lists it", async () => {
    const started = await exec.execute({ command: "echo one; sleep 0.2; echo two; exit 4", background: true }, ctx);
    expect(started.isError).toBeFalsy();
    const jobId = started.details!.jobId as string;
    expect(started.content).toContain(`running in the background as ${jobId}`);

    const pieces: string[] = [];
    let last = "";
    for (let i = 0; i < 50 && !last.includes("[exit code"); i++) {
      const res = await proc.execute({ action: "poll", jobId, waitMs: 2000 }, ctx);
      last = res.content;
      const piece = res.content.split(`\n\n${jobId} `)[0]!;
      if (piece !== "(no new output)") pieces.push(piece);
    }
    expect(pieces.join("\n")).toBe("one\ntwo");
    expect(last).toContain(`${jobId} [exit code 4]`);
    const again = await proc.execute({ action: "poll", jobId }, ctx);
    expect(again.content.startsWith("(no new output)")).toBe(true);

    const list = await proc.execute({ action: "list" }, ctx);
    expect(list.content).toMatch(new RegExp(`^${jobId}  exited \\(code 4\\)`));
  });

  it("kills a job with its children", async () => {
    const pidFile = path.join(box.ws, "bg.pid");
    const started = await exec.execute({ command: `sleep 30 & echo $! > ${pidFile}; wait`, background: true }, ctx);
    const jobId = started.details!.jobId as string;
    expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")).toBe(true);
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(isAlive(child)).toBe(true);
    const res = await proc.execute({ action: "kill", jobId }, ctx);
    expect(res.content).toContain(`${jobId} [killed`);
    expect(res.details).toMatchObject({ status: "killed" });
    expect(await waitUntil(() => !isAlive(child))).toBe(true);
  });

  it("continues a yieldMs command in the background with the output so far", async () => {
    const res = await exec.execute({ command: "echo early; sleep 30", yieldMs: 300 }, ctx);
    expect(res.content).toMatch(/^early\n\n\[running in the background as job-1/);
    const poll = await proc.execute({ action: "poll", jobId: "job-1" }, ctx);
    expect(poll.content).toContain("(no new output)");
    expect(poll.content).toContain("[still running after");
  });

  it("kills background jobs when the run is aborted", async () => {
    const controller = new AbortController();
    const runCtx = { ...ctx, signal: controller.signal };
    const started = await exec.execute({ command: "sleep 30", background: true }, runCtx);
    const job = processes.get(started.details!.jobId as string)!;
    controller.abort();
    await job.shell.done;
    expect(job.status).toBe("killed");
  });

  it("shows a session only its own jobs, and explains unknown ids", async () => {
    await exec.execute({ command: "sleep 30", background: true }, ctx);
    const other = { ...ctx, sessionKey: "agent:main:telegram:dm:42" };
    expect((await proc.execute({ action: "list" }, other)).content).toBe("No background jobs.");
    const res = await proc.execute({ action: "poll", jobId: "job-1" }, other);
    expect(res.isError).toBe(true);
    expect(res.content).toContain('No background job "job-1"');
    expect((await proc.execute({ action: "kill" }, ctx)).content).toContain("needs a jobId");
  });

  it("dispose kills every running job", async () => {
    await exec.execute({ command: "sleep 30", background: true }, ctx);
    await exec.execute({ command: "sleep 30", background: true }, ctx);
    await processes.dispose();
    expect(processes.list().map((j) => j.status)).toEqual(["killed", "killed"]);
  });
});

describe("the environment of commands", () => {
  const secrets = {
    OPENCLAW_GATEWAY_TOKEN: "gateway-secret",
    TELEGRAM_BOT_TOKEN: "123:telegram-secret",
    OPENAI_API_KEY: "sk-provider-secret",
    SOME_CLIENT_SECRET: "client-secret",
    DB_PASSWORD: "db-secret",
  };
  const stubSecrets = () => {
    for (const [k, v] of Object.entries(secrets)) vi.stubEnv(k, v);
    vi.stubEnv("HOME", "/home/gateway-user");
    vi.stubEnv("LC_ALL", "C.UTF-8");
  };
  const envLines = (content: string) => new Set(content.split("\n"));

  it("has PATH, HOME, locale and the skill env, and none of the gateway's secrets", async () => {
    stubSecrets();
    const res = await exec.execute({ command: "env" }, { ...ctx, env: { SKILL_TOKEN: "from-skill" } });
    expect(res.isError).toBeFalsy();
    for (const value of Object.values(secrets)) expect(res.content).not.toContain(value);
    const lines = envLines(res.content);
    expect(lines).toContain(`PATH=${process.env.PATH}`);
    expect(lines).toContain("HOME=/home/gateway-user");
    expect(lines).toContain("LC_ALL=C.UTF-8");
    expect(lines).toContain("SKILL_TOKEN=from-skill");
    expect(lines).toContain("PAGER=cat");
  });

  it("gives background jobs (followed with process) the same environment", async () => {
    stubSecrets();
    const started = await exec.execute({ command: "env", background: true }, { ...ctx, env: { SKILL_TOKEN: "from-skill" } });
    const jobId = started.details!.jobId as string;
    await processes.get(jobId)!.shell.done;
    const res = await proc.execute({ action: "poll", jobId }, ctx);
    for (const value of Object.values(secrets)) expect(res.content).not.toContain(value);
    const lines = envLines(res.content);
    expect(lines).toContain("HOME=/home/gateway-user");
    expect(lines).toContain("SKILL_TOKEN=from-skill");
  });

  it("passes the variables named in tools.exec.passEnv", async () => {
    stubSecrets();
    vi.stubEnv("PROJECT_REGISTRY_URL", "https://registry.example");
    const config = makeConfig({ tools: { exec: { passEnv: ["PROJECT_REGISTRY_URL", "DB_PASSWORD", "NOT_SET_ANYWHERE"] } } });
    const res = await exec.execute({ command: "env" }, { ...ctx, config });
    const lines = envLines(res.content);
    expect(lines).toContain("PROJECT_REGISTRY_URL=https://registry.example");
    expect(lines).toContain("DB_PASSWORD=db-secret");
    expect(res.content).not.toContain("NOT_SET_ANYWHERE");
    expect(res.content).not.toContain("telegram-secret");
  });
});

describe("tools.exec.mode", () => {
  const withExec = (exec: Record<string, unknown>) => ({ ...ctx, config: makeConfig({ tools: { exec } }) });
  const ran = () => existsSync(path.join(box.ws, "ran"));

  it('"deny" runs no command and says which key turned exec off', async () => {
    const denied = withExec({ mode: "deny" });
    const res = await exec.execute({ command: "touch ran" }, denied);
    expect(res.isError).toBe(true);
    expect(res.content).toContain('tools.exec.mode is "deny"');
    expect((await exec.execute({ command: "touch ran", background: true }, denied)).isError).toBe(true);
    expect(ran()).toBe(false);
  });

  it('"allowlist" runs one listed program with plain arguments and refuses everything else', async () => {
    const listed = withExec({ mode: "allowlist", allowlist: ["echo", "ls"] });
    const ok = await exec.execute({ command: "echo hello 'a;b' \"c d\"" }, listed);
    expect(ok.content).toBe("hello a;b c d\n\n[exit code 0]");
    for (const command of [
      "touch ran",
      "echo hi; touch ran",
      "echo hi && touch ran",
      "echo $(touch ran)",
      "echo `touch ran`",
      "echo hi > ran",
      "ls | touch ran",
      "X=1 touch ran",
      'echo "$(touch ran)"',
      "echo hi\ntouch ran",
      "/usr/bin/touch ran",
      "t* ran",
    ]) {
      const res = await exec.execute({ command }, listed);
      expect(res.isError, command).toBe(true);
      expect(res.content, command).toContain('tools.exec.mode is "allowlist"');
      expect(res.content, command).toContain("Allowed programs (tools.exec.allowlist): echo, ls.");
    }
    expect((await exec.execute({ command: "touch ran", background: true }, listed)).isError).toBe(true);
    expect(ran()).toBe(false);
  });

  it("an allowlist pattern with / matches a program given as a path", async () => {
    mkdirSync(path.join(box.ws, "bin"));
    const script = path.join(box.ws, "bin", "hello.sh");
    writeFileSync(script, "#!/bin/sh\necho hello from script\n", { mode: 0o755 });
    const listed = withExec({ mode: "allowlist", allowlist: [`${box.ws}/bin/*`] });
    expect((await exec.execute({ command: "bin/hello.sh" }, listed)).content).toBe("hello from script\n\n[exit code 0]");
    expect((await exec.execute({ command: `${box.ws}/bin/hello.sh` }, listed)).isError).toBeFalsy();
    expect((await exec.execute({ command: "hello.sh" }, listed)).content).toContain('"hello.sh" is not on the allowlist');
  });
});
