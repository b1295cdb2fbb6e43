import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CronService } from "../scheduler/index.js";
import { openStateDb, type CronJob, type StateDb } from "../state/index.js";
import { makeCtx, makeSandbox, type TestSandbox } from "./__fixtures__/context.js";
import { createCronTool } from "./index.js";

let box: TestSandbox;
beforeEach(() => (box = makeSandbox()));
afterEach(() => box.cleanup());

describe("cron tool", () => {
  it("without a gateway, stores the agent's jobs in the state database and refuses to run one", async () => {
    const tool = createCronTool();
    const ctx = makeCtx(box);
    const added = await tool.execute({ action: "add", every: "2h", message: "check the inbox", name: "inbox" }, ctx);
    expect(added.isError).toBeFalsy();
    expect(added.content).toMatch(/^Added [0-9a-f]{8} "inbox" every 2h -> last \(isolated session\); next /);
    const id = (added.details as { job: CronJob }).job.id;

    // Another agent's job is neither listed nor reachable.
    const other = makeCtx(box, { agentId: "ops", sessionKey: "agent:ops:main" });
    await tool.execute({ action: "add", at: "+1h", message: "not yours", target: "none" }, other);
    const listed = await tool.execute({ action: "list" }, ctx);
    expect((listed.details as { jobs: CronJob[] }).jobs.map((j) => j.id)).toEqual([id]);
    const foreign = (await tool.execute({ action: "list" }, other)).details as { jobs: CronJob[] };
    expect((await tool.execute({ action: "remove", id: foreign.jobs[0]!.id }, ctx)).content).toContain("There is no job");

    const paused = await tool.execute({ action: "update", id, enabled: false, cron: "0 9 * * *", tz: "UTC" }, ctx);
    expect(paused.content).toContain('cron "0 9 * * *" (UTC)');
    expect(paused.content).toContain("disabled");
    const run = await tool.execute({ action: "run", id }, ctx);
    expect(run.isError).toBe(true);
    expect(run.content).toContain("openclaw gateway");

    expect((await tool.execute({ action: "remove", id }, ctx)).content).toBe(`Removed job ${id}.`);
    const db = openStateDb(box.stateDir);
    expect(new CronService({ db, runJob: async () => ({ status: "ok", delivered: false }) }).list("main")).toEqual([]);
    db.close();
  });

  it("explains a bad schedule and refuses sessions other than the owner's main and cron sessions", async () => {
    const tool = createCronTool();
    const bad = await tool.execute({ action: "add", cron: "99 * * * *", message: "x" }, makeCtx(box));
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('the cron expression "99 * * * *" is invalid');

    const group = await tool.execute({ action: "list" }, makeCtx(box, { sessionKey: "agent:main:telegram:group:-100" }));
    expect(group.isError).toBe(true);
    expect(group.content).toContain("only in the owner's main session");
    const cronSession = await tool.execute({ action: "list" }, makeCtx(box, { sessionKey: "agent:main:cron:abcd1234" }));
    expect(cronSession.isError).toBeFalsy();
  });

  it("with a gateway, goes through its scheduler and starts a run without waiting for it", async () => {
    let db: StateDb | undefined;
    try {
      db = openStateDb(box.stateDir);
      let release!: () => void;
      const started: string[] = [];
      const service = new CronService({
        db,
        runJob: (job) => {
          started.push(job.id);
          return new Promise((resolve) => (release = () => resolve({ status: "ok", delivered: true })));
        },
      });
      const tool = createCronTool({ jobs: () => service });
      const ctx = makeCtx(box);
      const { job } = (await tool.execute({ action: "add", at: "+1d", message: "later", target: "telegram:default:42" }, ctx)).details as {
        job: CronJob;
      };
      const run = await tool.execute({ action: "run", id: job.id }, ctx);
      expect(run.content).toBe(`Started job ${job.id}; its reply goes to telegram:default:42.`);
      expect(started).toEqual([job.id]);
      release();
      await service.idle();
      expect(service.runs({ jobId: job.id })[0]).toMatchObject({ trigger: "manual", status: "ok", delivered: true });
    } finally {
      db?.close();
    }
  });
});
