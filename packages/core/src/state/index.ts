// Public surface of the shared state database (<stateDir>/state/openclaw.sqlite).
// Other folders import from here only. To add tables, append a migration in migrations.ts.
export {
  openStateDb,
  withStateDb,
  stateDbPath,
  stateDbSchemaVersion,
  STATE_DB_BUSY_TIMEOUT_MS,
  type StateDb,
  type OpenStateDbOptions,
} from "./db.js";
export { STATE_MIGRATIONS, type StateMigration } from "./migrations.js";
export {
  getWorkspaceSetupState,
  updateWorkspaceSetupState,
  getWorkspaceAttestation,
  putWorkspaceAttestation,
  clearWorkspaceAttestation,
  clearWorkspaceRows,
  type WorkspaceSetupState,
  type WorkspaceAttestation,
} from "./workspace-store.js";
export {
  CRON_MIGRATION,
  createCronStore,
  type ClaimedRun,
  type CronJob,
  type CronJobPatch,
  type CronRun,
  type CronRunStatus,
  type CronSchedule,
  type CronSessionMode,
  type CronStore,
  type NewCronJob,
  type NextRunFn,
} from "./cron-store.js";
