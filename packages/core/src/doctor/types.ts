import type { OpenClawPaths } from "../config/index.js";

/** What one doctor step found or did. */
export interface DoctorStepResult {
  /** Changes made (with --fix) or that would be made (without), one human line each. */
  changes: string[];
  /** Problems doctor cannot or will not fix by itself; each says what to do. */
  problems: string[];
  /** Extra lines worth showing (backups written, files imported). */
  notes: string[];
}

export interface DoctorContext {
  paths: OpenClawPaths;
  /** True with --fix: steps change things; otherwise they only report. */
  fix: boolean;
  /** Shows long work (a spinner on a terminal, plain lines when piped); default: nothing shown. */
  progress?: (text: string) => DoctorProgress;
}

/** What a step reports long work to (the CLI's `Progress`). */
export interface DoctorProgress {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
}

/** One concern doctor checks; steps run in order and never throw for a user problem. */
export interface DoctorStep {
  id: string;
  /** Section heading in the report. */
  title: string;
  run(ctx: DoctorContext): Promise<DoctorStepResult>;
}

export const emptyResult = (): DoctorStepResult => ({ changes: [], problems: [], notes: [] });
