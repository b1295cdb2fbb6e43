import { UserError } from "../paths.js";

/** One thing wrong with a config file, with enough context for the user to fix it. */
export interface ConfigProblem {
  /** The file the problem is in (for an include problem: the including file). */
  file: string;
  /** Config path where it occurred, e.g. `channels.<id>.botToken`; absent for whole-file problems. */
  path?: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/** Renders one problem as `<file>: <path>: <message>`. */
export function formatProblem(problem: ConfigProblem): string {
  const where = problem.path ? `${problem.file}: ${problem.path}` : problem.file;
  return `${where}: ${problem.message}`;
}

/**
 * A config file (or a file it includes) cannot be read, parsed or resolved.
 * `problems` lists every issue found; the message renders all of them, one per line.
 */
export class ConfigFileError extends UserError {
  /** The main config file being loaded or written. */
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: ConfigProblem | readonly ConfigProblem[]) {
    const list = Array.isArray(problems) ? [...problems] : [problems as ConfigProblem];
    const first = list[0];
    const message =
      list.length === 1 && first
        ? formatProblem(first)
        : `${file}: ${list.length} problems in the config:\n${list.map((p) => `  - ${formatProblem(p)}`).join("\n")}`;
    super(message);
    this.name = "ConfigFileError";
    this.file = file;
    this.problems = list;
  }
}
