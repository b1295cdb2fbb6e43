import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
