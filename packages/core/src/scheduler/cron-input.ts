// What people and the agent write to create or change a cron job (the `cron` tool, the control
// API, `openclaw cron add`), checked and turned into the stored shape. One place, so the three
// front ends accept the same spellings and give the same errors.
import type { CronJobPatch, CronSchedule, CronSessionMode, NewCronJob } from "../state/index.js";
import { parseAtText, parseDurationText, scheduleProblem } from "./cron-schedule.js";
import { formatTarget, parseTarget } from "./target.js";

/** The schedule fields: exactly one of `at`, `every`, `cron` (with an optional `tz`). */
export interface CronScheduleInput {
  /** ISO date-time, epoch ms, or a delay `+20m` / `in 2h`. */
  at?: string;
  /** An interval: `30m`, `2h`, `1d`, `1h30m` (first run one interval from now). */
  every?: string;
  /** A 5- or 6-field cron expression (seconds first when 6), e.g. `0 9 * * 1-5`. */
  cron?: string;
  /** IANA timezone of `cron` (default: the host's). */
  tz?: string;
}

/** A new job as written by a person or the agent. */
export interface CronJobInput extends CronScheduleInput {
  message: string;
  name?: string;
  /** `isolated` (default): its own session `agent:<id>:cron:<jobId>`; `main`: a message into the agent's main session. */
  session?: CronSessionMode;
  /** `last` (default), `none`, or `<channel>:<accountId>:<chatId>`. */
  target?: string;
  enabled?: boolean;
}

/** A bad job: the message says which field and what to write instead. */
export class CronInputError extends Error {
  override name = "CronInputError";
}

/**
 * Checks a delivery target with {@link parseTarget}: `last`, `none`, or
 * `<channel>:<accountId>:<chatId>` (the chat id may contain `:`). Returns it normalized or throws
 * a {@link CronInputError}.
 */
export function checkCronTarget(raw: string): string {
  try {
    return formatTarget(parseTarget(raw, "last"));
  } catch (err) {
    throw new CronInputError((err as Error).message);
  }
}

/** The schedule of `input`, or undefined when it names none; throws a {@link CronInputError} when it is wrong. */
export function parseCronSchedule(input: CronScheduleInput, nowMs: number): CronSchedule | undefined {
  const given = (["at", "every", "cron"] as const).filter((k) => input[k] !== undefined && input[k] !== "");
  if (given.length === 0) {
    if (input.tz !== undefined) throw new CronInputError("tz only applies to a cron expression; give cron too");
    return undefined;
  }
  if (given.length > 1)
    throw new CronInputError(`give one schedule, not ${given.join(" and ")}: at (a time), every (an interval) or cron (an expression)`);
  if (input.tz !== undefined && given[0] !== "cron") throw new CronInputError("tz only applies to a cron expression");
  let schedule: CronSchedule;
  if (input.at !== undefined) {
    const atMs = parseAtText(input.at, nowMs);
    if (atMs === undefined)
      throw new CronInputError(
        `at "${input.at}" is not a time: write an ISO date-time ("2026-12-24T18:00:00+01:00") or a delay ("+20m", "in 2h")`,
      );
    schedule = { kind: "at", atMs };
  } else if (input.every !== undefined) {
    const everyMs = parseDurationText(input.every);
    if (everyMs === undefined) throw new CronInputError(`every "${input.every}" is not an interval: write e.g. "30m", "2h", "1d", "1h30m"`);
    schedule = { kind: "every", everyMs, anchorMs: nowMs };
  } else {
    schedule = { kind: "cron", expr: input.cron!.trim(), ...(input.tz ? { tz: input.tz.trim() } : {}) };
  }
  const problem = scheduleProblem(schedule);
  if (problem) throw new CronInputError(problem);
  return schedule;
}

function checkMessage(message: string | undefined): string {
  const text = message?.trim() ?? "";
  if (text === "") throw new CronInputError("message must not be empty: it is what the agent is told when the job runs");
  return text;
}

/** Turns a new job's input into the stored shape for `agentId`; throws a {@link CronInputError} naming the field. */
export function parseCronJobInput(input: CronJobInput, agentId: string, nowMs: number): NewCronJob {
  const schedule = parseCronSchedule(input, nowMs);
  if (!schedule) throw new CronInputError("give a schedule: at (a time), every (an interval) or cron (an expression)");
  const name = input.name?.trim();
  return {
    agentId,
    ...(name ? { name } : {}),
    schedule,
    session: input.session ?? "isolated",
    message: checkMessage(input.message),
    target: checkCronTarget(input.target ?? "last"),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  };
}

/** Turns changed fields into a patch (unset fields stay as they are); throws a {@link CronInputError}. */
export function parseCronJobPatch(input: Partial<CronJobInput>, nowMs: number): CronJobPatch {
  const schedule = parseCronSchedule(input, nowMs);
  return {
    ...(schedule ? { schedule } : {}),
    ...(input.name !== undefined ? { name: input.name.trim() === "" ? null : input.name.trim() } : {}),
    ...(input.message !== undefined ? { message: checkMessage(input.message) } : {}),
    ...(input.session !== undefined ? { session: input.session } : {}),
    ...(input.target !== undefined ? { target: checkCronTarget(input.target) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  };
}
