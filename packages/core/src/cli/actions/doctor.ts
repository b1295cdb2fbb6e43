// `openclaw doctor`, loaded only when it runs.
import { formatDoctorReport, runDoctor } from "../../doctor/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";
import { startProgress } from "../progress.js";

export interface DoctorOptions {
  fix?: boolean;
  nonInteractive?: boolean;
  json?: boolean;
}

async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises"); // only on a terminal, when there is something to apply
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/**
 * Reports (and with --fix applies) what doctor finds. On a TTY without --fix, --non-interactive or
 * --json it offers to apply pending changes. Exit code 1 while problems or unapplied changes remain.
 */
export async function runDoctorCommand(ctx: CliContext, opts: DoctorOptions): Promise<void> {
  const paths = ctx.paths();
  const progress = (text: string) => startProgress(ctx.stderr, text);
  let report = await runDoctor({ paths, fix: Boolean(opts.fix), progress });
  // isatty(0), not process.stdin.isTTY: that getter sets up a stream on stdin, which doctor only reads
  // to ask. node:tty is loaded only then.
  const interactive =
    !opts.fix &&
    !opts.nonInteractive &&
    !opts.json &&
    report.changeCount > 0 &&
    process.stderr.isTTY &&
    process.getBuiltinModule("node:tty").isatty(0);
  if (interactive) {
    writeLine(ctx.stdout, formatDoctorReport(report, paths.configPath));
    if (await confirm(`Apply these ${report.changeCount} change(s) now? [y/N] `)) {
      report = await runDoctor({ paths, fix: true, progress });
    } else {
      process.exitCode = 1;
      return;
    }
  }
  if (opts.json) writeJson(ctx.stdout, report);
  else writeLine(ctx.stdout, formatDoctorReport(report, paths.configPath));
  const pending = report.fix ? 0 : report.changeCount;
  if (report.problemCount > 0 || pending > 0) process.exitCode = 1;
}
