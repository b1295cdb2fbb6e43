// A cron job fires exactly once across a gateway restart: `openclaw gateway` in its own process
// with the fake model and the loopback channel, `openclaw cron add` through its control API, the
// gateway stopped (SIGTERM, or kill -9) before the job is due, started again. Whichever process
// got to run it, the chat shows the reply once and the model was asked once; the one-shot job is
// then disabled with its last status.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { CronJob } from "../src/state/index.js";
import { CLI_ENTRY, cliEnv, makeTempHome, runCli, writeFakeModelConfig } from "./helpers/cli.js";

const LOOPBACK = fileURLToPath(new URL("../../testkit/loopback-plugin", import.meta.url));
const CRON_TEXT = "cron says: water the plants";

let home: string;
let cleanup: () => void;
let fake: FakeModelServer;
const children: ChildProcess[] = [];

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome());
  fake = await startFakeOpenAI();
  writeFakeModelConfig(home, fake.baseUrl, {
    plugins: { load: { paths: [LOOPBACK] } },
    channels: { loopback: { dmPolicy: "open", allowFrom: ["*"] } },
  });
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await fake.close();
  cleanup();
});

interface GatewayProcess {
  proc: ChildProcess;
  port: number;
  stderr(): string;
  exited: Promise<void>;
  /** Resolves once stderr matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
}

/** Spawns `openclaw gateway --port 0` (loopback messages printed to stderr) and resolves once it listens. */
function startGateway(): Promise<GatewayProcess> {
  // OPENCLAW_LOOPBACK_SAY makes the loopback plugin print every message a bot sends.
  const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], {
    env: cliEnv(home, { OPENCLAW_LOOPBACK_SAY: "hello" }),
    cwd: home,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(proc);
  let stderr = "";
  const waiters: { pattern: RegExp; resolve(): void }[] = [];
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  proc.stderr!.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    for (const w of [...waiters]) {
      if (!w.pattern.test(stderr)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(stderr)) return resolve();
      waiters.push({ pattern, resolve });
      void exited.then(() => reject(new Error(`the gateway exited before printing ${pattern}:\n${stderr}`)));
    });
  return waitFor(/listening on ws:\/\/127\.0\.0\.1:(\d+)/).then(() => ({
    proc,
    port: Number(/listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1]),
    stderr: () => stderr,
    exited,
    waitFor,
  }));
}

const deliveries = (stderr: string) => stderr.split("\n").filter((l) => l.includes(`-> cron-chat: ${CRON_TEXT}`)).length;
const cronModelCalls = () => fake.requests.filter((r) => JSON.stringify(r.body).includes(CRON_TEXT)).length;

async function cronJobs(): Promise<CronJob[]> {
  const listed = await runCli(["cron", "list", "--json"], { home });
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { jobs: CronJob[] }).jobs;
}

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  it(`runs a job due across a restart exactly once (${signal})`, async () => {
    const first = await startGateway();
    const added = await runCli(["cron", "add", "--at", "+3s", "--message", CRON_TEXT, "--target", "loopback:default:cron-chat", "--json"], {
      home,
    });
    expect(added.code, added.stderr).toBe(0);
    const { job } = JSON.parse(added.stdout) as { job: CronJob };
    expect(job).toMatchObject({ enabled: true, session: "isolated", target: "loopback:default:cron-chat" });

    first.proc.kill(signal);
    await first.exited;

    const second = await startGateway();
    // The job ran in one of the two processes; wait until its reply reached the chat.
    if (deliveries(first.stderr()) === 0) await second.waitFor(new RegExp(`-> cron-chat: ${CRON_TEXT}`));
    const [after] = await cronJobs();
    expect(after).toMatchObject({ id: job.id, enabled: false, lastStatus: "ok" });
    expect(after!.nextRunAt).toBeUndefined();
    expect(deliveries(first.stderr()) + deliveries(second.stderr())).toBe(1);
    expect(cronModelCalls()).toBe(1);

    // And a third start runs nothing again.
    second.proc.kill("SIGTERM");
    await second.exited;
    const third = await startGateway();
    const status = await runCli(["status", "--json"], { home });
    expect(JSON.parse(status.stdout).gateway.cron).toEqual({ jobs: 1, enabled: 0 });
    // A run would have been claimed (lastRunAt and lastStatus moved) as the gateway started.
    const [again] = await cronJobs();
    expect(again).toMatchObject({ lastRunAt: after!.lastRunAt, lastStatus: "ok" });
    expect(deliveries(third.stderr())).toBe(0);
    third.proc.kill("SIGTERM");
    await third.exited;
  }, 120_000);
}
