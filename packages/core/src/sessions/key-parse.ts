/** What kind of conversation a session key belongs to. */
export type SessionKind = "main" | "direct" | "group" | "channel" | "thread" | "topic" | "subagent" | "acp" | "cron" | "hook" | "unknown";

/** The parts of a session key; fields that do not apply to the kind are absent. */
export interface ParsedSessionKey {
  kind: SessionKind;
  /** The key as parsed (trimmed, lowercased). */
  key: string;
  agentId?: string;
  /** For `main`: the main key name (usually `main`). */
  mainKey?: string;
  channel?: string;
  accountId?: string;
  /** DM peer (or its canonical identity-link name). */
  peerId?: string;
  /** Group or channel id. */
  chatId?: string;
  topicId?: string;
  threadId?: string;
  /** For `thread`: the kind of the key the thread hangs off. */
  baseKind?: SessionKind;
  /** For `thread` and `topic`: the key without the last `:thread:`/`:topic:` suffix. */
  baseKey?: string;
  /** For `subagent`: the chain of sub-agent ids, outermost first (nested sub-agents). */
  subagentPath?: string[];
  /** For `acp`, `hook`: the id; for `subagent`: the innermost id. */
  id?: string;
  jobId?: string;
  /** True for the legacy `<provider>:dm:<id>` shape. */
  legacy?: boolean;
}

function parseAgentRest(key: string, agentId: string, rest: string): ParsedSessionKey {
  const threadAt = rest.lastIndexOf(":thread:");
  if (threadAt > 0 && threadAt + 8 < rest.length) {
    const base = parseAgentRest(key, agentId, rest.slice(0, threadAt));
    const { kind: baseKind, key: _k, baseKey: _b, ...fields } = base;
    return {
      ...fields,
      kind: "thread",
      key,
      baseKind,
      baseKey: `agent:${agentId}:${rest.slice(0, threadAt)}`,
      threadId: rest.slice(threadAt + 8),
    };
  }
  const parts = rest.split(":");
  const [first = "", second, third] = parts;
  if (first === "subagent" && parts.length >= 2) {
    const path = rest.slice("subagent:".length).split(":subagent:");
    return { kind: "subagent", key, agentId, subagentPath: path, id: path[path.length - 1]! };
  }
  if (first === "acp" && parts.length >= 2) {
    return { kind: "acp", key, agentId, id: parts.slice(1).join(":") };
  }
  if (first === "cron" && parts.length >= 2) {
    return { kind: "cron", key, agentId, jobId: parts.slice(1).join(":") };
  }
  if (first === "direct" && parts.length >= 2) {
    return { kind: "direct", key, agentId, peerId: parts.slice(1).join(":") };
  }
  if (parts.length === 1 && first !== "") return { kind: "main", key, agentId, mainKey: first };
  if ((second === "group" || second === "channel") && parts.length >= 3) {
    const id = parts.slice(2).join(":");
    const topicAt = id.lastIndexOf(":topic:");
    if (second === "group" && topicAt > 0 && topicAt + 7 < id.length) {
      return {
        kind: "topic",
        key,
        agentId,
        channel: first,
        chatId: id.slice(0, topicAt),
        topicId: id.slice(topicAt + 7),
        baseKey: `agent:${agentId}:${first}:group:${id.slice(0, topicAt)}`,
      };
    }
    return { kind: second, key, agentId, channel: first, chatId: id };
  }
  if (second === "direct" && parts.length >= 3) {
    return { kind: "direct", key, agentId, channel: first, peerId: parts.slice(2).join(":") };
  }
  if (third === "direct" && parts.length >= 4 && second !== undefined) {
    return {
      kind: "direct",
      key,
      agentId,
      channel: first,
      accountId: second,
      peerId: parts.slice(3).join(":"),
    };
  }
  return { kind: "unknown", key, agentId };
}

/**
 * Splits a session key into its parts. Accepts every shape `buildSessionKey` produces plus the
 * legacy `<provider>:dm:<id>`; anything else parses as kind `unknown` (never throws). Input is
 * trimmed and lowercased first.
 */
export function parseSessionKey(rawKey: string): ParsedSessionKey {
  const key = rawKey.trim().toLowerCase();
  const parts = key.split(":");
  if (parts[0] === "agent" && parts.length >= 3 && parts[1] !== "") {
    return parseAgentRest(key, parts[1]!, parts.slice(2).join(":"));
  }
  if (parts[0] === "cron" && parts.length >= 2) return { kind: "cron", key, jobId: parts.slice(1).join(":") };
  if (parts[0] === "hook" && parts.length >= 2) return { kind: "hook", key, id: parts.slice(1).join(":") };
  if (parts.length >= 3 && parts[1] === "dm" && parts[0] !== "") {
    return { kind: "direct", key, channel: parts[0], peerId: parts.slice(2).join(":"), legacy: true };
  }
  return { kind: "unknown", key };
}

/**
 * The kind of a session key: `main`, `direct`, `group`, `channel`, `thread`, `topic`,
 * `subagent`, `acp`, `cron`, `hook`, or `unknown`. A DM under dmScope `main` is `main`.
 */
export function sessionKind(key: string): SessionKind {
  return parseSessionKey(key).kind;
}

/** True for sub-agent keys, nested or not. */
export function isSubagentSessionKey(key: string): boolean {
  return sessionKind(key) === "subagent";
}

/** The reset-policy type of a key (`session.resetByType`): threads and topics are `thread`. */
export type ResetType = "direct" | "group" | "thread";

/** `thread` for thread and topic keys, `group` for group and channel keys, else `direct`. */
export function resetTypeForKey(key: string): ResetType {
  const kind = sessionKind(key);
  if (kind === "thread" || kind === "topic") return "thread";
  if (kind === "group" || kind === "channel") return "group";
  return "direct";
}
