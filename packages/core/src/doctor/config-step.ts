import {
  ConfigFileError,
  formatProblems,
  readConfigSource,
  resolveConfigSource,
  securityWarnings,
  validateConfig,
  writeConfigFile,
} from "../config/index.js";
import { resolveConfigRegistry } from "../plugins/index.js";
import { emptyResult, type DoctorStep } from "./types.js";

/**
 * Migrates retired keys in the main config file (channel roots and every account), then
 * validates what is left. Migrations run on the file as written, so `${VAR}` references and
 * `$include` directives are kept as they are.
 */
export const configStep: DoctorStep = {
  id: "config",
  title: "Config",
  async run({ paths, fix }) {
    const result = emptyResult();
    const file = paths.configPath;
    let source;
    try {
      source = await readConfigSource(file);
    } catch (err) {
      if (err instanceof ConfigFileError) {
        result.problems.push(err.message);
        return result;
      }
      throw err;
    }
    if (!source.exists) {
      result.notes.push(`No config file at ${file}; the safe defaults are in effect.`);
      return result;
    }
    if (typeof source.raw !== "object" || source.raw === null || Array.isArray(source.raw)) {
      result.problems.push(`${file} must hold an object ({ … }); fix it by hand.`);
      return result;
    }
    // Installed plugins' channel definitions (and their retired-key rules) join the built-in ones.
    const forPlugins = await resolveConfigSource(source.raw, { file }).catch(() => source.raw);
    const withPlugins = await resolveConfigRegistry(forPlugins, paths);
    const registry = withPlugins.registry;
    result.problems.push(...withPlugins.problems.map((p) => p.message));
    result.notes.push(...withPlugins.warnings.map((w) => `Warning: ${w}`));
    const migrated = structuredClone(source.raw) as Record<string, unknown>;
    const outcome = registry.migrate(migrated);
    result.changes.push(...outcome.changes);
    result.problems.push(...outcome.problems.map((p) => `${p} (in ${file})`));
    if (fix && outcome.changes.length > 0) {
      const { backupPath } = await writeConfigFile(file, migrated);
      result.notes.push(`Wrote ${file}${backupPath ? `; the previous version is kept as ${backupPath}` : ""}.`);
    }
    const toCheck = fix ? migrated : outcome.changes.length > 0 ? migrated : source.raw;
    try {
      const resolved = await resolveConfigSource(toCheck, { file });
      result.notes.push(...securityWarnings(resolved).map((w) => `Warning: ${w}`));
      const validation = validateConfig(resolved, registry);
      if (!validation.ok) {
        // Retired keys still present after migration live in $include'd files (or were refused above).
        const remaining = validation.problems.filter(
          (p) => p.kind !== "legacy" || !outcome.problems.some((text) => text.startsWith(p.path)),
        );
        const fromIncludes = remaining.filter((p) => p.kind === "legacy");
        const invalid = remaining.filter((p) => p.kind !== "legacy");
        for (const p of fromIncludes) {
          result.problems.push(`${p.path} is retired and comes from an $include'd file; move it there by hand: ${p.message}`);
        }
        if (invalid.length > 0) {
          result.problems.push(`${fix || outcome.changes.length === 0 ? "" : "After these changes, "}${formatProblems(file, invalid)}`);
        }
      }
    } catch (err) {
      if (err instanceof ConfigFileError) result.problems.push(err.message);
      else throw err;
    }
    return result;
  },
};
