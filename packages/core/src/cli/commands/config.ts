import type { Command } from "commander";
import { z } from "zod";
import {
  ConfigError,
  ConfigFileError,
  createConfigRegistry,
  formatProblems,
  getAtPath,
  parseCliValue,
  parseConfigPath,
  readConfigSource,
  resolveConfigSource,
  setAtPath,
  unsetAtPath,
  UserError,
  validateConfig,
  writeConfigFile,
  type ConfigProblem,
} from "../../config/index.js";
import type { CliContext } from "../context.js";
import { formatValue, writeJson, writeLine } from "../output.js";

type Validation = { ok: true; config: unknown } | { ok: false; problems: ConfigProblem[] };

/** Validates the raw content of the main file as it would be loaded. */
async function validateRaw(file: string, raw: unknown): Promise<{ resolved: unknown; result: Validation }> {
  const resolved = await resolveConfigSource(raw, { file });
  return { resolved, result: validateConfig(resolved, createConfigRegistry()) };
}

const problemKey = (p: ConfigProblem) => `${p.path}\u0000${p.message}`;

/** Writes `next` only when it adds no new problem to those `current` already had. */
async function writeIfNoNewProblems(ctx: CliContext, file: string, current: unknown, next: Record<string, unknown>, what: string) {
  let before: ConfigProblem[] = [];
  try {
    const b = await validateRaw(file, current);
    if (!b.result.ok) before = b.result.problems;
  } catch {
    // An unresolvable current file: judge the new content on its own.
  }
  const after = await validateRaw(file, next);
  if (!after.result.ok) {
    const known = new Set(before.map(problemKey));
    const added = after.result.problems.filter((p) => !known.has(problemKey(p)));
    if (added.length > 0) {
      throw new UserError(`Not written: ${what} would make the config invalid.\n${formatProblems(file, added)}`);
    }
  }
  const { backupPath } = await writeConfigFile(file, next);
  writeLine(ctx.stdout, `${what} in ${file}${backupPath ? ` (previous version kept as ${backupPath})` : ""}`);
  if (!after.result.ok) {
    writeLine(ctx.stderr, `Warning: the config still has problems it had before:\n${formatProblems(file, after.result.problems)}`);
  }
}

export function registerConfig(program: Command, ctx: CliContext): void {
  const config = program.command("config").description("read, change and check openclaw.json");

  config
    .command("validate")
    .description("check the config against the schema; exits non-zero and lists every problem if it is invalid")
    .option("--json", "print the result as JSON")
    .action(async (opts: { json?: boolean }) => {
      const file = ctx.paths().configPath;
      let problems: ConfigProblem[] = [];
      let exists = false;
      try {
        const source = await readConfigSource(file);
        exists = source.exists;
        const { result } = await validateRaw(file, source.raw);
        if (!result.ok) problems = result.problems;
      } catch (err) {
        if (!(err instanceof ConfigFileError)) throw err;
        problems = err.problems.map((p) => ({ kind: "invalid" as const, path: p.path ?? "", message: p.message }));
        exists = true;
        if (!opts.json) throw err;
      }
      if (opts.json) {
        writeJson(ctx.stdout, { valid: problems.length === 0, file, exists, problems });
      } else if (problems.length > 0) {
        writeLine(ctx.stderr, formatProblems(file, problems));
      } else {
        writeLine(ctx.stdout, exists ? `Config OK: ${file}` : `No config file at ${file}; the safe defaults are in effect (valid).`);
      }
      if (problems.length > 0) process.exitCode = 1;
    });

  config
    .command("get")
    .description("print the effective value at a config path (defaults included), e.g. agents.defaults.model")
    .argument("<path>", 'dotted path; brackets for odd keys: agents.entries["my.agent"]')
    .option("--json", "print the value as JSON")
    .action(async (pathText: string, opts: { json?: boolean }) => {
      const segments = parseConfigPath(pathText);
      let value: unknown;
      try {
        const loaded = await ctx.loadConfig();
        value = getAtPath(loaded.config, segments);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        // Reading is a diagnostic: show the configured value, but say the config is invalid.
        const file = ctx.paths().configPath;
        const source = await readConfigSource(file);
        value = getAtPath(await resolveConfigSource(source.raw, { file }), segments);
        writeLine(ctx.stderr, `Warning: ${file} is invalid (run \`openclaw config validate\`); showing the configured value.`);
      }
      if (value === undefined) {
        throw new UserError(`${pathText} is not set in ${ctx.paths().configPath} and has no default.`);
      }
      if (opts.json) writeJson(ctx.stdout, value);
      else writeLine(ctx.stdout, formatValue(value));
    });

  config
    .command("set")
    .description("set a value (JSON5; a bare word is a string) after checking that the result is valid")
    .argument("<path>", "dotted config path, e.g. channels.telegram.streaming.mode")
    .argument("<value>", 'JSON5 value: true, 42, "text", {mode: "partial"}, or a bare word')
    .action(async (pathText: string, valueText: string) => {
      const segments = parseConfigPath(pathText);
      const value = parseCliValue(valueText);
      const file = ctx.paths().configPath;
      const source = await readConfigSource(file);
      const current = source.raw;
      if (typeof current !== "object" || current === null || Array.isArray(current)) {
        throw new UserError(`${file} does not hold an object; fix it by hand first.`);
      }
      const next = setAtPath(structuredClone(current) as Record<string, unknown>, segments, value);
      await writeIfNoNewProblems(ctx, file, current, next, `Set ${pathText}`);
    });

  config
    .command("unset")
    .description("remove a value from the config file (it falls back to its default)")
    .argument("<path>", "dotted config path")
    .action(async (pathText: string) => {
      const segments = parseConfigPath(pathText);
      const file = ctx.paths().configPath;
      const source = await readConfigSource(file);
      const current = source.raw as Record<string, unknown>;
      const next = structuredClone(current);
      if (!source.exists || !unsetAtPath(next, segments)) {
        throw new UserError(`${pathText} is not set in ${file}; nothing to remove.`);
      }
      await writeIfNoNewProblems(ctx, file, current, next, `Removed ${pathText}`);
    });

  config
    .command("schema")
    .description("print the JSON Schema of openclaw.json (generated from the zod schema)")
    .action(() => {
      writeJson(ctx.stdout, configJsonSchema());
    });
}

/** The JSON Schema users point editors at (input form: defaults are optional). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(createConfigRegistry().schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { title: "OpenClaw configuration (openclaw.json)", ...schema };
}
