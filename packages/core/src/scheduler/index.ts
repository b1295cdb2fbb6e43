// Public surface of the scheduler concern: scheduled turns (heartbeat, cron) and their delivery,
// cron jobs (schedules, input checking, the scheduler loop). Other folders import from here only.
export {
  runScheduledTurn,
  isScheduledRunPending,
  type ScheduledTurnDeps,
  type ScheduledTurnRequest,
  type ScheduledTurnOutcome,
} from "./scheduled-turn.js";
export { parseTarget, formatTarget, type ScheduledTurnTarget, type ScheduledTarget } from "./target.js";
export { gatewayScheduledTurnDeps, type GatewaySchedulerInput } from "./gateway-deps.js";
export { createLastContactLookup } from "./last-contact.js";
export {
  HeartbeatScheduler,
  HEARTBEAT_MAX_SLEEP_MS,
  type HeartbeatSchedulerOptions,
  type HeartbeatRunEvent,
  type HeartbeatStatusEntry,
  type SchedulerTimers,
} from "./heartbeat.js";
export { HeartbeatStore, nextHeartbeatDue, type HeartbeatRunRecord, type HeartbeatStatus } from "./heartbeat-store.js";
export { readHeartbeatReply, HEARTBEAT_OK, type HeartbeatReply } from "./heartbeat-ack.js";
export { isWithinActiveHours, minuteOfDay, type ActiveHours } from "./active-hours.js";
export {
  resolveHeartbeatSettings,
  heartbeatAgents,
  durationMs,
  DEFAULT_HEARTBEAT_PROMPT,
  type HeartbeatSettings,
} from "./heartbeat-settings.js";
export { createGatewayHeartbeat, type GatewayHeartbeatInput } from "./gateway-heartbeat.js";
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
export { createGatewayCron, cronOutcomeOf, cronSessionKey, runCronJob, type GatewayCronInput } from "./gateway-cron.js";
export {
  CronService,
  type CronJobs,
  type CronRunOutcome,
  type CronServiceOptions,
  type CronSummary,
  type CronTimers,
} from "./cron-service.js";
