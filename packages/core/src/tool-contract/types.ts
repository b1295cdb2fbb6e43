import type { OpenClawConfig } from "../config/index.js";
import type { ImagePart } from "../providers/index.js";

/** A folder outside the workspace that file tools may also use, by absolute path. */
export interface ToolRoot {
  /** Absolute path. */
  dir: string;
  /** False: read only; a write there is refused with `readOnlyReason`. */
  writable: boolean;
  /** What the folder is, for messages, e.g. "the agent workspace". */
  label: string;
  /** Why it is read only, naming the config key, e.g. `agents.defaults.sandbox.workspaceAccess is "ro"`. */
  readOnlyReason?: string;
}

/** What every tool call receives from the agent loop. */
export interface ToolContext {
  /**
   * The session's workspace, absolute: the agent's workspace, or a sandboxed session's own
   * folder. Relative paths resolve against it; file tools never leave it except into `extraRoots`.
   */
  workspaceDir: string;
  /**
   * Folders besides `workspaceDir` the file tools may use by absolute path: a sandboxed session's
   * view of its agent's workspace (`sandbox.workspaceAccess` "rw" or "ro"). Default none.
   */
  extraRoots?: readonly ToolRoot[];
  agentId: string;
  sessionKey: string;
  /** Fires when the run is aborted; long tools (exec, web_fetch) stop and background jobs die. */
  signal: AbortSignal;
  config: OpenClawConfig;
  /** `<stateDir>` (e.g. `~/.openclaw`); per-agent files live under `<stateDir>/agents/<agentId>/`. */
  stateDir: string;
  /** `"provider/model"` of the model calling the tool; gates apply_patch. */
  modelRef?: string;
  /**
   * Files outside the workspace that `read` may open: the SKILL.md of each eligible skill, keyed
   * by every spelling the prompt may use (absolute, and `~/…`), valued by the absolute path.
   */
  readableFiles?: ReadonlyMap<string, string>;
  /** Variables added to exec's environment (skill env and API keys from `skills.entries`). */
  env?: Record<string, string>;
}

/** What a tool call returns to the model. */
export interface ToolResult {
  /** Text shown to the model; always sent, so it should stand alone (e.g. name the saved file). */
  content: string;
  /**
   * Images beside the text (base64, e.g. a screenshot as `{ mimeType: "image/png", data }`).
   * Optional; default none. They reach the model only when its config lists `"image"` in
   * `models.providers.<id>.models[].input`; text-only models (the default) get `content` alone.
   */
  images?: ImagePart[];
  /** True when the call failed (bad arguments, refused path, non-zero exit, ...). */
  isError?: boolean;
  /** Structured facts for logs, UIs and tests; never sent to the model. */
  details?: Record<string, unknown>;
}

/** A tool the model may call. */
export interface AgentTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object (built from zod with `z.toJSONSchema`). */
  parameters: Record<string, unknown>;
  /** Policy groups the tool belongs to, e.g. `["group:fs"]`. */
  groups: string[];
  /** Validates `args` and runs; never throws (bad arguments and failures come back as `isError`). */
  execute(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}
