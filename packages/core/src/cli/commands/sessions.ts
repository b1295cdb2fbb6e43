import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../config/index.js";
import {
  agentStorePath,
  legacySessionsDir,
  normalizeAgentId,
  openAgentStoreReadOnly,
  sessionKind,
  type SessionEntry,
  type SessionReader,
  type StoredEvent,
} from "../../sessions/index.js";
import type { CliContext } from "../context.js";

interface SessionsOptions {
  agent?: string;
  json?: boolean;
  tail?: string;
}

/** `openclaw sessions list|show`: read-only views of an agent's session database. */
export function registerSessions(program: Command, ctx: CliContext): void {
  const sessions = program
    .command("sessions")
    .description("inspect an agent's sessions and transcripts (read-only; safe while the gateway runs)");

  sessions
    .command("list", { isDefault: true })
    .description("list session keys with their current session id, last update, chat type and event count")
    .option("--agent <id>", "the agent whose sessions to list (default: main)")
    .option("--json", "print JSON instead of a table")
    .action((opts: SessionsOptions) => {
      const agentId = normalizeAgentId(opts.agent);
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
    });

  sessions
    .command("show")
    .description("show one session: its entry and its transcript events in order")
    .argument("<key>", 'the session key, e.g. "agent:main:main" (a bare "main" means agent:<agent>:main)')
    .option("--agent <id>", "the agent that owns the session (default: main)")
    .option("--tail <n>", "show only the last n events")
    .option("--json", "print JSON instead of text")
    .action((rawKey: string, opts: SessionsOptions) => {
      const agentId = normalizeAgentId(opts.agent);
      const tail = parseTail(opts.tail);
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
        const events =
          tail === undefined ? reader.readEvents(entry.sessionId) : reader.readTail(entry.sessionId, tail);
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
    });
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
  lines.push("", events.length === total ? `Transcript (${total} events):` : `Transcript (last ${events.length} of ${total} events):`);
  for (const { seq, event } of events) {
    lines.push(`  ${String(seq).padStart(5)}  ${event.timestamp ?? "-"}  ${summarize(event)}`);
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

function summarize(event: StoredEvent["event"]): string {
  if (event.type === "message" && event.message && typeof event.message === "object") {
    const m = event.message as { role?: unknown; content?: unknown };
    return `message ${String(m.role ?? "?")}: ${oneLine(textOf(m.content))}`;
  }
  if (event.type === "model_change") return `model_change ${String(event.provider ?? "")}/${String(event.modelId ?? "")}`;
  if (event.type === "custom" || event.type === "custom_message") return `${event.type} ${String(event.customType ?? "")}`;
  return event.type;
}

function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return `${[line(headers), ...rows.map(line)].join("\n")}\n`;
}
