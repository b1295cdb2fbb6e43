import { afterEach, describe, expect, it } from "vitest";
import type { CronJob, CronRun } from "../state/index.js";
import { startHarness, type Harness } from "./__fixtures__/harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe("cron.* control methods", () => {
  it("add, list, update, run (in the job's own session) and remove, with cron in status", async () => {
    h = await startHarness();
    const client = await h.connect();

    await expect(client.request("cron.add", { message: "x", every: "1h", cron: "0 9 * * *" })).rejects.toMatchObject({
      code: "invalid_params",
      message: expect.stringContaining("give one schedule, not every and cron"),
    });
    await expect(client.request("cron.add", { message: "x", every: "1h", agentId: "nobody" })).rejects.toMatchObject({ code: "not_found" });

    const { job } = await client.request<{ job: CronJob }>("cron.add", {
      message: "daily digest",
      every: "1d",
      target: "none",
      name: "digest",
    });
    expect(job).toMatchObject({ agentId: "main", name: "digest", session: "isolated", target: "none", enabled: true });
    expect((await client.request<{ jobs: CronJob[] }>("cron.list")).jobs.map((j) => j.id)).toEqual([job.id]);
    expect((await client.request<any>("status")).cron).toEqual({ jobs: 1, enabled: 1, nextRunAt: job.nextRunAt });

    const { job: moved } = await client.request<{ job: CronJob }>("cron.update", { id: job.id, cron: "30 6 * * *", tz: "UTC" });
    expect(moved.schedule).toEqual({ kind: "cron", expr: "30 6 * * *", tz: "UTC" });
    expect(new Date(moved.nextRunAt!).toISOString()).toMatch(/T06:30:00\.000Z$/);

    const { run } = await client.request<{ run: CronRun }>("cron.run", { id: job.id });
    expect(run).toMatchObject({ jobId: job.id, trigger: "manual", status: "ok", delivered: false });
    expect(JSON.stringify(h.fake.lastRequest()!.body)).toContain("daily digest");
    const sessions = await client.request<{ sessions: { key: string }[] }>("sessions.list");
    expect(sessions.sessions.map((s) => s.key)).toContain(`agent:main:cron:${job.id}`);
    // The schedule did not move.
    expect((await client.request<{ jobs: CronJob[] }>("cron.list")).jobs[0]!.nextRunAt).toBe(moved.nextRunAt);

    expect(await client.request("cron.remove", { id: job.id })).toEqual({ removed: job.id });
    await expect(client.request("cron.run", { id: job.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await client.request<any>("status")).cron).toEqual({ jobs: 0, enabled: 0 });
  });
});
