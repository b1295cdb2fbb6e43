import {
  looksWrittenByReference,
  referenceSideFilePath,
  takeKeys,
  writeReferenceSideFile,
  type MovedKey,
} from "../config/reference-side-file.js";
import {
  ConfigFileError,
  formatProblems,
  readConfigSource,
  resolveConfigSource,
  securityWarnings,
  updateConfigFile,
  validateConfig,
  type ConfigRegistry,
  type ConfigSource,
  type OpenClawPaths,
} from "../config/index.js";
import { resolveConfigRegistry } from "../plugins/index.js";
import { shareDoctorConfig } from "./load-config.js";
import { emptyResult, type DoctorStep } from "./types.js";

/** The main file as written, its migrated copy, and the registry (with plugins) that migrated it. */
type Inspection =
  | { kind: "missing" }
  | { kind: "not-object" }
  | {
      kind: "object";
      raw: Record<string, unknown>;
      migrated: Record<string, unknown>;
      outcome: ReturnType<ConfigRegistry["migrate"]>;
      registry: ConfigRegistry;
      plugins: { problems: { message: string }[]; warnings: string[] };
      /** Keys of a reference-written config this openclaw does not know, taken out of `migrated`. */
      moved: MovedKey[];
    };

async function inspect(paths: OpenClawPaths, source: ConfigSource): Promise<Inspection> {
  if (!source.exists) return { kind: "missing" };
  const raw = source.raw;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { kind: "not-object" };
  // Installed plugins' channel definitions (and their retired-key rules) join the built-in ones.
  const forPlugins = await resolveConfigSource(raw, { file: paths.configPath }).catch(() => raw);
  const plugins = await resolveConfigRegistry(forPlugins, paths);
  const migrated = structuredClone(raw) as Record<string, unknown>;
  const outcome = plugins.registry.migrate(migrated);
  const moved = looksWrittenByReference(raw) ? await unknownKeysOf(migrated, paths.configPath, plugins.registry) : [];
  return { kind: "object", raw: raw as Record<string, unknown>, migrated, outcome, registry: plugins.registry, plugins, moved };
}

/** Takes the keys validation calls unknown out of `migrated` (those in the file itself, not in $include'd ones). */
async function unknownKeysOf(migrated: Record<string, unknown>, file: string, registry: ConfigRegistry): Promise<MovedKey[]> {
  const resolved = await resolveConfigSource(migrated, { file }).catch(() => undefined);
  if (resolved === undefined) return [];
  const validation = validateConfig(resolved, registry);
  if (validation.ok) return [];
  return takeKeys(
    migrated,
    validation.problems.flatMap((p) => (p.unknownKey ? [p.unknownKey] : [])),
  );
}

const hasChanges = (i: Inspection) => i.kind === "object" && (i.outcome.changes.length > 0 || i.moved.length > 0);
const movedLine = (m: MovedKey, sideFile: string) => `${m.path} moved to ${sideFile} (this openclaw does not support it)`;

/** What `doctor --fix` would do to the main config file: the file as written, and as it would be written. */
export interface ConfigMigrationPlan {
  /** The file's content as written (`{}` when there is no file). */
  raw: Record<string, unknown>;
  /** The content after migration; equal to `raw` when nothing changes. */
  migrated: Record<string, unknown>;
  /** One human line per change, as `openclaw doctor` prints them. */
  changes: string[];
  /** What doctor cannot migrate by itself (a key to fix by hand). */
  problems: string[];
}

/**
 * The config step's plan, read-only: the same inspection `openclaw doctor` does (installed
 * plugins' rules included). A file that does not hold an object plans nothing and says so in
 * `problems`; a file that cannot be read or parsed throws its `ConfigFileError`.
 */
export async function planConfigMigration(paths: OpenClawPaths): Promise<ConfigMigrationPlan> {
  const inspected = await inspect(paths, await readConfigSource(paths.configPath));
  if (inspected.kind === "missing") return { raw: {}, migrated: {}, changes: [], problems: [] };
  if (inspected.kind === "not-object")
    return { raw: {}, migrated: {}, changes: [], problems: [`${paths.configPath} must hold an object ({ … }); fix it by hand.`] };
  const sideFile = referenceSideFilePath(paths.configPath);
  return {
    raw: inspected.raw,
    migrated: inspected.migrated,
    changes: [...inspected.outcome.changes, ...inspected.moved.map((m) => movedLine(m, sideFile))],
    problems: [
      ...inspected.plugins.problems.map((p) => p.message),
      ...inspected.outcome.problems.map((p) => `${p} (in ${paths.configPath})`),
    ],
  };
}

/**
 * Migrates retired keys in the main config file (channel roots and every account), then
 * validates what is left. Migrations run on the file as written, so `${VAR}` references and
 * `$include` directives are kept as they are. With `fix`, the file is rewritten under its lock
 * (`updateConfigFile`), migrating the content found once the lock is held.
 */
export const configStep: DoctorStep = {
  id: "config",
  title: "Config",
  async run(ctx) {
    const { paths, fix } = ctx;
    const result = emptyResult();
    const file = paths.configPath;
    let inspected: Inspection;
    try {
      inspected = await inspect(paths, await readConfigSource(file));
      if (fix && hasChanges(inspected)) {
        // Migrate again under the lock, on the file as it is now: another process may have changed it.
        const write = await updateConfigFile(file, async (source) => {
          inspected = await inspect(paths, source);
          if (inspected.kind !== "object" || !hasChanges(inspected)) return undefined;
          if (inspected.moved.length > 0) await writeReferenceSideFile(referenceSideFilePath(file), inspected.moved);
          return inspected.migrated;
        });
        if (write.written) {
          result.notes.push(`Wrote ${file}${write.backupPath ? `; the previous version is kept as ${write.backupPath}` : ""}.`);
        }
      }
    } catch (err) {
      if (err instanceof ConfigFileError) {
        result.problems.push(err.message);
        return result;
      }
      throw err;
    }
    if (inspected.kind === "missing") {
      result.notes.push(`No config file at ${file}; the safe defaults are in effect.`);
      return result;
    }
    if (inspected.kind === "not-object") {
      result.problems.push(`${file} must hold an object ({ … }); fix it by hand.`);
      return result;
    }
    const { raw, migrated, outcome, registry, plugins, moved } = inspected;
    result.problems.push(...plugins.problems.map((p) => p.message));
    result.notes.push(...plugins.warnings.map((w) => `Warning: ${w}`));
    result.changes.push(...outcome.changes);
    result.changes.push(...moved.map((m) => movedLine(m, referenceSideFilePath(file))));
    result.problems.push(...outcome.problems.map((p) => `${p} (in ${file})`));
    const toCheck = fix || hasChanges(inspected) ? migrated : raw;
    try {
      const resolved = await resolveConfigSource(toCheck, { file });
      result.notes.push(...securityWarnings(resolved).map((w) => `Warning: ${w}`));
      const validation = validateConfig(resolved, registry);
      if (validation.ok && toCheck === raw && plugins.problems.length === 0) shareDoctorConfig(ctx, validation.config);
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
