// Config FILE layer: reading, `$include` + `${VAR}` resolution, atomic writes, and path
// operations for `openclaw config get|set|unset`. The config folder's index wires these in.
export { ConfigFileError, formatProblem, type ConfigProblem } from "./errors.js";
export { readConfigSource, type ConfigSource } from "./read.js";
export { resolveConfigSource, type ResolveConfigSourceOptions } from "./resolve.js";
export { MAX_INCLUDE_DEPTH } from "./includes.js";
export { MAX_INCLUDE_BYTES } from "./include-files.js";
export { MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH } from "./limits.js";
export {
  writeConfigFile,
  configBackupPaths,
  CONFIG_BACKUP_GENERATIONS,
  type WriteConfigFileOptions,
  type WriteConfigFileResult,
} from "./write.js";
export { updateConfigFile, type UpdateConfigFileResult } from "./update.js";
export { configLockPath, CONFIG_LOCK_STALE_MS, CONFIG_LOCK_WAIT_MS, type ConfigLockOptions } from "./lock.js";
export { parseConfigPath, formatConfigPath, getAtPath, setAtPath, unsetAtPath } from "./config-path.js";
export { parseCliValue } from "./cli-value.js";
export { deepMerge } from "./merge.js";
export { parseJson5Text, type ParseOutcome } from "./json5-text.js";
export { configText } from "./write.js";
