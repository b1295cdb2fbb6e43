import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { formatDoctorReport, runDoctor } from "../../doctor/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command("doctor")
    .description("check config and state; with --fix, migrate retired config keys (keeping a backup) and repair what is safe")
    .option("--fix", "apply the changes (writes a backup of the config first)")
    .option("--non-interactive", "never prompt; without --fix only report")
    .option("--json", "print the report as JSON")
    .action(async (opts: { fix?: boolean; nonInteractive?: boolean; json?: boolean }) => {
      const paths = ctx.paths();
      let report = await runDoctor({ paths, fix: Boolean(opts.fix) });
      const interactive = !opts.fix && !opts.nonInteractive && !opts.json && process.stdin.isTTY && process.stderr.isTTY;
      if (interactive && report.changeCount > 0) {
        writeLine(ctx.stdout, formatDoctorReport(report, paths.configPath));
        if (await confirm(`Apply these ${report.changeCount} change(s) now? [y/N] `)) {
          report = await runDoctor({ paths, fix: true });
        } else {
          process.exitCode = 1;
          return;
        }
      }
      if (opts.json) writeJson(ctx.stdout, report);
      else writeLine(ctx.stdout, formatDoctorReport(report, paths.configPath));
      const pending = report.fix ? 0 : report.changeCount;
      if (report.problemCount > 0 || pending > 0) process.exitCode = 1;
    });
}
