export { runDoctor, formatDoctorReport, DOCTOR_STEPS, type DoctorReport } from "./run.js";
export type { DoctorStep, DoctorStepResult, DoctorContext } from "./types.js";
export { configStep, planConfigMigration, type ConfigMigrationPlan } from "./config-step.js";
