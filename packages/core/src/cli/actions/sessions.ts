// `openclaw sessions list|show`, loaded only when one of them runs. Read-only: it never creates
// or migrates a database, so it is safe while the gateway runs.
import { existsSync } from "node:fs";
import path from "node:path";
import { normalizeAgentId, resolveAgentId } from "../../agents/index.js";
import { UserError } from "../../config/index.js";
import {
  agentStorePath,
  legacySessionsDir,
  openAgentStoreReadOnly,
  sessionKind,
  type SessionEntry,
  type SessionReader,
  type StoredEvent,
} from "../../sessions/index.js";
import { COMPACTION_EVENT } from "../../agent/compaction/history.js";
import type { CliContext } from "../context.js";

export interface SessionsOptions {
  agent?: string;
  json?: boolean;
  tail?: string;
}

/**
 * The agent whose sessions to read: `--agent` as given (normalized; its database may outlive its
 * config entry, so it need not be configured), else the configured default agent.
 */
async function resolveSessionsAgent(ctx: CliContext, requested: string | undefined): Promise<string> {
  if (requested !== undefined) return normalizeAgentId(requested);
  const loaded = await ctx.loadConfig();
  return resolveAgentId(loaded.config, undefined, loaded.path);
}

/** `sessions list`: one row per session key, or a note (and a legacy hint) when there is none. */
export async function listSessions(ctx: CliContext, opts: SessionsOptions): Promise<void> {
  const agentId = await resolveSessionsAgent(ctx, opts.agent);
  const dbPath = agentStorePath(ctx.paths().stateDir, agentId);
  const reader = openAgentStoreReadOnly({ stateDir: ctx.paths().stateDir, agentId });
  try {
    const rows = reader ? reader.listSessions() : [];
    if (opts.json) {
      const sessions = rows.map((s) => ({
        key: s.key,
        sessionId: s.sessionId,
        kind: sessionKind(s.key),
        chatType: s.chatType ?? null,
        updatedAt: iso(s.updatedAt),
        eventCount: s.eventCount,
      }));
      ctx.stdout.write(`${JSON.stringify({ agentId, path: dbPath, sessions }, null, 2)}\n`);
      return;
    }
    if (rows.length === 0) {
      ctx.stdout.write(`No sessions yet for agent ${agentId}.\n`);
      hintLegacy(ctx, agentId);
      return;
    }
    const table = rows.map((s) => [s.key, s.sessionId, iso(s.updatedAt), s.chatType ?? sessionKind(s.key), String(s.eventCount)]);
    ctx.stdout.write(formatTable(["KEY", "SESSION ID", "UPDATED", "TYPE", "EVENTS"], table));
  } finally {
    reader?.close();
  }
}

/** `sessions show <key>`: the entry and its transcript (all events, or the last `--tail n`). */
export async function showSession(ctx: CliContext, rawKey: string, opts: SessionsOptions): Promise<void> {
  const tail = parseTail(opts.tail);
  const agentId = await resolveSessionsAgent(ctx, opts.agent);
  const reader = openAgentStoreReadOnly({ stateDir: ctx.paths().stateDir, agentId });
  if (!reader) {
    if (opts.json) {
      ctx.stdout.write(`${JSON.stringify({ agentId, key: rawKey.trim().toLowerCase(), entry: null, events: [] }, null, 2)}\n`);
    } else {
      ctx.stdout.write(`No sessions yet for agent ${agentId}.\n`);
      hintLegacy(ctx, agentId);
    }
    return;
  }
  try {
    const { key, entry } = findEntry(reader, rawKey, agentId);
    const events = tail === undefined ? reader.readEvents(entry.sessionId) : reader.readTail(entry.sessionId, tail);
    const history = reader.sessionHistory(key);
    if (opts.json) {
      ctx.stdout.write(
        `${JSON.stringify({ agentId, key, kind: sessionKind(key), sessionId: entry.sessionId, entry, history, events }, null, 2)}\n`,
      );
      return;
    }
    ctx.stdout.write(describe(agentId, key, entry, history.length, reader.countEvents(entry.sessionId), events));
  } finally {
    reader.close();
  }
}

function parseTail(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--tail "${v}" must be a positive whole number.`, 2);
  return n;
}

function findEntry(reader: SessionReader, rawKey: string, agentId: string): { key: string; entry: SessionEntry } {
  const key = rawKey.trim().toLowerCase();
  const candidates = key.includes(":") ? [key] : [key, `agent:${agentId}:${key}`];
  for (const k of candidates) {
    const entry = reader.getEntry(k);
    if (entry) return { key: k, entry };
  }
  throw new UserError(
    `Agent ${agentId} has no session with key "${key}" (in ${reader.path}). ` +
      `Run \`openclaw sessions list --agent ${agentId}\` to see the keys.`,
  );
}

function hintLegacy(ctx: CliContext, agentId: string): void {
  const legacy = path.join(legacySessionsDir(ctx.paths().stateDir, agentId), "sessions.json");
  if (existsSync(legacy)) {
    ctx.stderr.write(`Found legacy sessions in ${legacy}; run \`openclaw doctor --fix\` to import them.\n`);
  }
}

function iso(ms: number | undefined): string {
  return typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : "-";
}

function describe(agentId: string, key: string, e: SessionEntry, sessionsForKey: number, total: number, events: StoredEvent[]): string {
  const lines: string[] = [`Session ${key} (agent ${agentId}, ${sessionKind(key)})`];
  const field = (label: string, value: unknown): void => {
    if (value !== undefined && value !== null && value !== "") lines.push(`  ${label.padEnd(18)}${String(value)}`);
  };
  field("session id", e.sessionId);
  field("started", iso(e.sessionStartedAt));
  field("updated", iso(e.updatedAt));
  if (e.lastInteractionAt !== undefined) field("last interaction", iso(e.lastInteractionAt));
  field("chat type", e.chatType);
  field("channel", e.channel);
  field("display name", e.displayName);
  field("model", [e.providerOverride, e.modelOverride].filter(Boolean).join("/"));
  if (e.totalTokens !== undefined || e.inputTokens !== undefined) {
    field("tokens", `in ${e.inputTokens ?? 0}, out ${e.outputTokens ?? 0}, total ${e.totalTokens ?? 0}`);
  }
  if (sessionsForKey > 1) field("earlier sessions", sessionsForKey - 1);
  if (e.compactionCount) field("compactions", e.compactionCount);
  lines.push("", events.length === total ? `Transcript (${total} events):` : `Transcript (last ${events.length} of ${total} events):`);
  const seqOf = new Map(events.map((e) => [e.event.id, e.seq]));
  for (const { seq, event } of events) {
    lines.push(`  ${String(seq).padStart(5)}  ${event.timestamp ?? "-"}  ${summarize(event, seqOf)}`);
  }
  return `${lines.join("\n")}\n`;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((c) => (c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string" ? (c as { text: string }).text : ""))
      .filter(Boolean)
      .join(" ");
  }
  return "";
}

function oneLine(s: string, max = 100): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function summarize(event: StoredEvent["event"], seqOf: ReadonlyMap<string, number>): string {
  if (event.type === "message" && event.message && typeof event.message === "object") {
    const m = event.message as { role?: unknown; content?: unknown };
    const trigger = typeof event.trigger === "string" ? ` [${event.trigger}]` : "";
    return `message ${String(m.role ?? "?")}${trigger}: ${oneLine(textOf(m.content))}`;
  }
  if (event.type === COMPACTION_EVENT) return compactionMarker(event, seqOf);
  if (event.type === "model_change") return `model_change ${String(event.provider ?? "")}/${String(event.modelId ?? "")}`;
  if (event.type === "custom" || event.type === "custom_message") return `${event.type} ${String(event.customType ?? "")}`;
  return event.type;
}

/**
 * The line that marks a compaction: why, how many messages went into the summary, the estimated
 * prompt before and after, and the summary's start. Everything above it that is not kept is what
 * the model now sees only as the summary.
 */
function compactionMarker(event: StoredEvent["event"], seqOf: ReadonlyMap<string, number>): string {
  const details = (event.details ?? {}) as { reason?: unknown; tokensAfter?: unknown; summarizedMessages?: unknown };
  const reason = typeof details.reason === "string" ? ` (${details.reason})` : "";
  const counts = typeof details.summarizedMessages === "number" ? `${details.summarizedMessages} messages summarized, ` : "";
  const tokens = `about ${String(event.tokensBefore ?? "?")} -> ${String(details.tokensAfter ?? "?")} tokens`;
  return `==== compaction${reason}: ${counts}${tokens}; kept from #${String(seqOf.get(String(event.firstKeptEntryId)) ?? event.firstKeptEntryId ?? "?")} ====\n         summary: ${oneLine(String(event.summary ?? ""), 200)}`;
}

function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join("\n")}\n`;
}
