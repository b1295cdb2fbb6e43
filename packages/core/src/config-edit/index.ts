// Editing the config file safely: validation before a write, the locked atomic write itself, and
// redacted text for editors (the CLI's `config set` and the control API's `config.*` share these).
export { validateRawConfig, type RegistryResolver, type Validation } from "./validate-raw.js";
export { ConfigChangeRefused, changeConfigFile, type ChangeConfigOptions, type ChangeConfigResult } from "./change-file.js";
export { configTextHash, fileRedactor, restoreRedacted } from "./redacted-text.js";
export { lineDiff } from "./line-diff.js";
