import { normalizeAgentId } from "../agents/index.js";
import { resolveLinkedPeerId, type IdentityLinks } from "./identity-links.js";

/** How DMs map to sessions (`session.dmScope`, default `main`). */
export type DmScope = "main" | "per-peer" | "per-channel-peer" | "per-account-channel-peer";
/** How groups map to sessions (`session.groupScope`, default `per-group`). */
export type GroupScope = "per-group" | "main";

export const DM_SCOPES: readonly DmScope[] = ["main", "per-peer", "per-channel-peer", "per-account-channel-peer"];
export const GROUP_SCOPES: readonly GroupScope[] = ["per-group", "main"];
/** The default `session.mainKey`. */
export const DEFAULT_MAIN_KEY = "main";

type Id = string | number | null | undefined;

interface AgentScoped {
  /** Normalized with `normalizeAgentId`; default `main`. */
  agentId?: string;
  /** `session.mainKey`; default `main`. */
  mainKey?: string;
}

/** What a session key is built from; one variant per row of the reference key table. */
export type SessionKeyInput =
  | ({ kind: "main" } & AgentScoped)
  | ({
      kind: "direct";
      channel?: string;
      accountId?: Id;
      peerId?: Id;
      /** Default `main`: every DM shares the main session. */
      dmScope?: DmScope;
      /** Applied for the non-main scopes only. */
      identityLinks?: IdentityLinks;
      threadId?: Id;
    } & AgentScoped)
  | ({
      kind: "group" | "channel";
      channel?: string;
      /** The group or channel id on the platform. */
      id?: Id;
      /** Default `per-group`; `main` sends the group to the main session. */
      groupScope?: GroupScope;
      /** Forum topic number (a thread with `threadKind: "topic"`); adds `:topic:<n>`. */
      topicId?: Id;
      threadId?: Id;
    } & AgentScoped)
  | { kind: "subagent"; agentId?: string; id: string; parentKey?: string }
  | { kind: "acp"; agentId?: string; id: string }
  /** With `agentId`: the agent's isolated cron session `agent:<id>:cron:<jobId>`; without: the legacy `cron:<jobId>`. */
  | { kind: "cron"; agentId?: string; jobId: string }
  | { kind: "hook"; id: string };

/** Lowercased and trimmed; a missing or blank id becomes `unknown`. */
export function normalizeKeyPart(value: Id): string {
  const s = value === null || value === undefined ? "" : String(value).trim().toLowerCase();
  return s === "" ? "unknown" : s;
}

function optionalPart(value: Id): string | undefined {
  if (value === null || value === undefined) return undefined;
  const s = String(value).trim().toLowerCase();
  return s === "" ? undefined : s;
}

/** `agent:<agentId>:<mainKey>`. */
export function mainSessionKey(agentId?: string, mainKey?: string): string {
  const main = optionalPart(mainKey) ?? DEFAULT_MAIN_KEY;
  return `agent:${normalizeAgentId(agentId)}:${main}`;
}

function withThread(base: string, threadId: Id): string {
  const thread = optionalPart(threadId);
  return thread === undefined ? base : `${base}:thread:${thread}`;
}

function directKey(input: Extract<SessionKeyInput, { kind: "direct" }>): string {
  const agent = normalizeAgentId(input.agentId);
  const scope = input.dmScope ?? "main";
  if (scope === "main") return withThread(mainSessionKey(agent, input.mainKey), input.threadId);
  const channel = normalizeKeyPart(input.channel);
  const rawPeer = normalizeKeyPart(input.peerId);
  const peer = rawPeer === "unknown" ? rawPeer : normalizeKeyPart(resolveLinkedPeerId(input.identityLinks, input.channel, rawPeer));
  let base: string;
  if (scope === "per-peer") base = `agent:${agent}:direct:${peer}`;
  else if (scope === "per-channel-peer") base = `agent:${agent}:${channel}:direct:${peer}`;
  else base = `agent:${agent}:${channel}:${normalizeKeyPart(input.accountId)}:direct:${peer}`;
  return withThread(base, input.threadId);
}

function groupKey(input: Extract<SessionKeyInput, { kind: "group" | "channel" }>): string {
  const agent = normalizeAgentId(input.agentId);
  if (input.groupScope === "main") {
    return withThread(mainSessionKey(agent, input.mainKey), input.threadId);
  }
  let base = `agent:${agent}:${normalizeKeyPart(input.channel)}:${input.kind}:${normalizeKeyPart(input.id)}`;
  const topic = optionalPart(input.topicId);
  if (topic !== undefined) base += `:topic:${topic}`;
  return withThread(base, input.threadId);
}

/**
 * Builds the session key for one conversation, exactly as the reference spells it, lowercased:
 *
 * | input | key |
 * |---|---|
 * | main | `agent:<a>:<mainKey>` |
 * | direct, dmScope `main` (default) | the main key |
 * | direct, `per-peer` | `agent:<a>:direct:<peer>` |
 * | direct, `per-channel-peer` | `agent:<a>:<channel>:direct:<peer>` |
 * | direct, `per-account-channel-peer` | `agent:<a>:<channel>:<account>:direct:<peer>` |
 * | group / channel | `agent:<a>:<channel>:group\|channel:<id>` (groupScope `main`: the main key) |
 * | forum topic | `...:group:<chatId>:topic:<n>` |
 * | any of the above with `threadId` | base key + `:thread:<threadId>` |
 * | subagent | `agent:<a>:subagent:<id>`; under a sub-agent `parentKey`: `<parentKey>:subagent:<id>` |
 * | acp | `agent:<a>:acp:<id>` |
 * | cron | `cron:<jobId>` |
 * | hook | `hook:<id>` |
 *
 * A missing peer, group, account or channel id becomes `unknown`; `identityLinks` replace a DM
 * peer by its canonical name for the non-main DM scopes.
 */
export function buildSessionKey(input: SessionKeyInput): string {
  switch (input.kind) {
    case "main":
      return mainSessionKey(input.agentId, input.mainKey);
    case "direct":
      return directKey(input);
    case "group":
    case "channel":
      return groupKey(input);
    case "subagent": {
      const id = normalizeKeyPart(input.id);
      const parent = input.parentKey?.trim().toLowerCase();
      if (parent && /^agent:[^:]+:subagent:/.test(parent)) return `${parent}:subagent:${id}`;
      return `agent:${normalizeAgentId(input.agentId)}:subagent:${id}`;
    }
    case "acp":
      return `agent:${normalizeAgentId(input.agentId)}:acp:${normalizeKeyPart(input.id)}`;
    case "cron":
      return input.agentId !== undefined
        ? `agent:${normalizeAgentId(input.agentId)}:cron:${normalizeKeyPart(input.jobId)}`
        : `cron:${normalizeKeyPart(input.jobId)}`;
    case "hook":
      return `hook:${normalizeKeyPart(input.id)}`;
  }
}
