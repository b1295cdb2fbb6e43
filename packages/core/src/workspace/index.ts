// Public surface of the workspace concern: resolving an agent's workspace, seeding it, the
// BOOTSTRAP.md lifecycle and vanished-workspace guard, the "# Project Context" prompt block, and
// the import of legacy workspace-state files. Other folders import from here only.
export {
  DEFAULT_AGENT_ID,
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
  normalizeAgentId,
  resolveDefaultAgentId,
  resolveWorkspaceDir,
  resolveWorkspaceSettings,
  resolveAllWorkspaceDirs,
  type WorkspaceSettings,
  type ResolveWorkspaceOptions,
} from "./settings.js";
export {
  BOOTSTRAP_FILE_NAMES,
  TEMPLATE_FILE_NAMES,
  BOOTSTRAP_FILE_NAME,
  MEMORY_FILE_NAME,
  MAX_BOOTSTRAP_READ_BYTES,
  loadWorkspaceBootstrapFiles,
  type BootstrapFileName,
  type WorkspaceBootstrapFile,
} from "./bootstrap-files.js";
export type { BootstrapSessionKind } from "./session-kind.js";
export { getsDailyNotes } from "./session-kind.js";
export { TRUNCATION_HEAD_RATIO, MIN_TRUNCATED_CONTENT_CHARS } from "./truncate.js";
export {
  buildProjectContext,
  assembleProjectContext,
  missingFileMarker,
  type ContextFileStatus,
  type ProjectContext,
  type ProjectContextFile,
  type ProjectContextTotals,
  type ProjectContextOptions,
} from "./project-context.js";
export { FIRST_RUN_GUIDANCE } from "./guidance.js";
export { workspaceTemplatesDir } from "./templates.js";
export {
  ensureWorkspace,
  resetWorkspaceState,
  WorkspaceVanishedError,
  WORKSPACE_ATTESTATION_RECENT_MS,
  type BootstrapStatus,
  type EnsureWorkspaceOptions,
  type EnsureWorkspaceResult,
} from "./ensure.js";
export {
  importLegacyWorkspaceState,
  detectLegacyWorkspaceState,
  type LegacyImportReport,
  type LegacyWorkspaceStateFile,
  type LegacyWorkspaceStateKind,
  type LegacyWorkspaceStateOptions,
} from "./legacy-import.js";
