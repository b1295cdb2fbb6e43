import type { Command } from "commander";
import type { CronCommandOptions } from "../actions/cron.js";
import type { CliContext } from "../context.js";

/** The implementation (control API client, state database), imported only on use. */
const actions = () => import("../actions/cron.js");

function scheduleOptions(command: Command): Command {
  return command
    .option("--at <time>", 'one-shot: an ISO date-time ("2026-12-24T18:00:00+01:00") or a delay ("+20m")')
    .option("--every <interval>", 'repeat every interval ("30m", "2h", "1d"), first run one interval from now')
    .option("--cron <expr>", 'a cron expression ("0 9 * * 1-5"; 6 fields: seconds first)')
    .option("--tz <zone>", "IANA timezone of --cron (default: the host's)")
    .option("--message <text>", "what the agent is told when the job runs")
    .option("--session <mode>", "isolated (default: its own session agent:<id>:cron:<jobId>) or main (a message into the main session)")
    .option("--target <target>", "where the reply goes: last (default), none, or <channel>:<accountId>:<chatId>")
    .option("--name <name>", "a short label");
}

function gatewayOptions(command: Command): Command {
  return command
    .option("--url <url>", "the gateway's control API (default: the running gateway of this state folder)")
    .option("--token <token>", "the gateway's control API token");
}

/**
 * `openclaw cron list|add|update|enable|disable|rm|run`: scheduled turns of an agent. With a
 * gateway running they go through its control API (the scheduler sees changes at once); without
 * one, list/add/update/rm work on the state database and the gateway picks the jobs up when it
 * starts. `run` needs the gateway.
 */
export function registerCron(program: Command, ctx: CliContext): void {
  const cron = program.command("cron").description("scheduled agent turns: at a time, every interval, or by a cron expression");

  gatewayOptions(
    cron
      .command("list", { isDefault: true })
      .description("list the jobs with their schedule, target, next and last run")
      .option("--agent <id>", "only this agent's jobs")
      .option("--json", "print JSON"),
  ).action(async (opts: CronCommandOptions) => (await actions()).listCron(ctx, opts));

  gatewayOptions(
    scheduleOptions(cron.command("add").description("add a job (one of --at, --every, --cron; and --message)"))
      .option("--agent <id>", "the agent that runs it (default: the default agent)")
      .option("--disabled", "store it paused")
      .option("--json", "print the job as JSON"),
  ).action(async (opts: CronCommandOptions) => (await actions()).addCron(ctx, opts));

  gatewayOptions(
    scheduleOptions(
      cron.command("update").description("change a job; unset options stay as they are").argument("<id>", "the job id"),
    ).option("--json", "print the job as JSON"),
  ).action(async (id: string, opts: CronCommandOptions) => (await actions()).updateCron(ctx, id, opts));

  for (const [name, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    gatewayOptions(
      cron
        .command(name)
        .description(enabled ? "resume a paused job (its next run is computed from now)" : "pause a job")
        .argument("<id>", "the job id"),
    ).action(async (id: string, opts: CronCommandOptions) => (await actions()).updateCron(ctx, id, { ...opts, enabled }));
  }

  gatewayOptions(
    cron.command("rm").alias("remove").description("delete a job (its run history stays)").argument("<id>", "the job id"),
  ).action(async (id: string, opts: CronCommandOptions) => (await actions()).removeCron(ctx, id, opts));

  gatewayOptions(
    cron
      .command("run")
      .description("run a job now through the running gateway and wait for it (its schedule stays)")
      .argument("<id>", "the job id")
      .option("--json", "print the run as JSON"),
  ).action(async (id: string, opts: CronCommandOptions) => (await actions()).runCron(ctx, id, opts));
}
