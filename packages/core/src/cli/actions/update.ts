// `openclaw update`, loaded only when it runs.
import { UserError } from "../../config/paths.js";
import { type CommandRunner, createExecRunner, firstLine, serviceManagerFor, type ServiceContext } from "../../service/index.js";
import { detectInstall, latestVersion, planUpgrade } from "../../update/index.js";
import type { CliContext } from "../context.js";
import { writeLine } from "../output.js";
import { coreVersion } from "../version.js";

export interface UpdateOptions {
  yes?: boolean;
}

/** What the command runs on the host; tests replace it. */
export interface UpdateDeps {
  runner: CommandRunner;
  /** Default `process.execPath`. */
  execPath: string;
  /** Default `process.argv[1]`. */
  entry: string;
  /** Default the installed @openclaw/core version. */
  current: string;
  service: Partial<ServiceContext>;
}

/**
 * Compares this copy with the newest release (`npm view`) and prints the upgrade steps; with
 * --yes runs them in order and stops at the first that fails, saying which and how to resume.
 */
export async function runUpdateCommand(ctx: CliContext, opts: UpdateOptions, deps: Partial<UpdateDeps> = {}): Promise<void> {
  const runner = deps.runner ?? createExecRunner(15 * 60_000);
  const execPath = deps.execPath ?? process.execPath;
  const entry = deps.entry ?? process.argv[1] ?? "";
  const current = deps.current ?? coreVersion();
  const out = ctx.stdout;
  const paths = ctx.paths();
  const install = detectInstall(entry);

  let latest: string | undefined;
  if (install.kind === "git") writeLine(out, `openclaw ${current}, running from the clone at ${install.root}`);
  else {
    const answer = await latestVersion(runner);
    if ("error" in answer)
      throw new UserError(
        `Could not ask the npm registry for the newest openclaw: ${answer.error}\nCheck your network or npm config, then run \`openclaw update\` again.`,
      );
    latest = answer.version;
    writeLine(out, `openclaw ${current} installed with ${install.kind}; newest release ${latest}`);
  }
  let serviceInstalled = false;
  try {
    serviceInstalled = (await serviceManagerFor({ paths, env: process.env, runner, ...deps.service }).status()).installed;
  } catch {
    // No service manager on this platform: nothing to restart.
  }
  const cli = [execPath, entry, ...(paths.profile !== undefined ? ["--profile", paths.profile] : [])];
  const plan = planUpgrade({ install, current, ...(latest !== undefined ? { latest } : {}), cli, serviceInstalled });
  if (!plan.needed) {
    writeLine(out, "Already up to date.");
    return;
  }
  const shown = plan.steps.map((step) => step.map(shellWord).join(" "));
  if (!opts.yes) {
    writeLine(out, `To upgrade (config, state and plugins in ${paths.stateDir} are kept), run \`openclaw update --yes\` or:`);
    for (const line of shown) writeLine(out, `  ${line}`);
    return;
  }
  for (const [i, step] of plan.steps.entries()) {
    writeLine(out, `$ ${shown[i]}`);
    const [program, ...args] = step;
    const result = await runner(program!, args);
    if (result.stdout.trim()) writeLine(out, result.stdout.trimEnd());
    if (result.code !== 0) {
      throw new UserError(
        `Step ${i + 1} of ${plan.steps.length} failed: ${firstLine(result)}\nFix that, then run the remaining steps:\n${shown
          .slice(i)
          .map((s) => `  ${s}`)
          .join("\n")}`,
      );
    }
  }
  writeLine(out, "Upgraded; doctor's migrations ran.");
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
