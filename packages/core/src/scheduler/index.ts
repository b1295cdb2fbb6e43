// Public surface of the scheduler concern: cron jobs (schedules, input checking, the gateway's
// scheduler loop). Other folders import from here only.
export {
  describeCronJob,
  describeSchedule,
  formatInterval,
  isKnownTimezone,
  MIN_EVERY_MS,
  nextRunAfter,
  parseAtText,
  parseDurationText,
  scheduleProblem,
} from "./cron-schedule.js";
export {
  checkCronTarget,
  CronInputError,
  parseCronJobInput,
  parseCronJobPatch,
  parseCronSchedule,
  type CronJobInput,
  type CronScheduleInput,
} from "./cron-input.js";
export {
  CronService,
  type CronJobs,
  type CronRunOutcome,
  type CronServiceOptions,
  type CronSummary,
  type CronTimers,
} from "./cron-service.js";
