// The payloads the pages read, as docs/gateway.md describes them. Only the fields the UI uses are
// typed; everything is treated as possibly absent, since an older gateway may lack a method.

// What a run reports while it works, as `agent` events carry it: core's own type (type-only, so
// nothing of core reaches the bundle).
export type { AgentEvent } from "../../../core/src/agent/events.js";

export interface StartedRun {
  runId: string;
  agentId: string;
  sessionKey: string;
}

export interface StatusPayload {
  version: string;
  pid?: number;
  startedAt: number;
  uptimeMs: number;
  port: number;
  bind: string;
  agents: { id: string; default: boolean }[];
  channels: { channel: string; label: string; accounts: number; states: Record<string, number> }[];
  recentErrors?: { message: string; at?: number; agentId?: string }[];
  /** Present once the gateway runs heartbeats (another issue). */
  heartbeat?: unknown;
  /** Present once the gateway runs cron jobs (another issue). */
  cron?: unknown;
}

export interface AccountReport {
  channel: string;
  accountId: string;
  name?: string;
  state: string;
  detail?: string;
  loginCommand?: string;
  identity?: string;
  details?: Record<string, string>;
  lastError?: string;
  restarts: number;
  /** A login the page can complete, e.g. a WhatsApp QR to scan. */
  login?: { kind: "qr"; data: string } | { kind: string; data?: string };
}

export interface ChannelReport {
  channel: string;
  label: string;
  accounts: AccountReport[];
}

export interface SessionRow {
  key: string;
  sessionId: string;
  updatedAt: number;
  chatType: string | null;
  channel: string | null;
  displayName: string | null;
  eventCount: number;
}

/** One stored transcript entry (pi session format) with its position. */
export interface StoredEvent {
  seq: number;
  event: { type: string; id: string; timestamp: string; message?: TranscriptMessage; [field: string]: unknown };
}

export interface TranscriptMessage {
  role: "user" | "assistant" | "toolResult" | string;
  content: unknown;
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
}

export interface HistoryPage {
  agentId: string;
  sessionKey: string;
  sessionId: string;
  total: number;
  events: StoredEvent[];
  /** Cursor for the page before this one; null at the start (absent from a gateway without paging). */
  nextBefore?: number | null;
}

export interface PendingPairing {
  channel: string;
  accountId?: string;
  code: string;
  senderId: string;
  senderName?: string | null;
  expiresAt?: number;
}

export interface ApprovedSender {
  accountId?: string;
  senderId: string;
  senderName?: string | null;
  approvedAt?: number;
}

export interface PairingList {
  pending: PendingPairing[];
  /** Approved senders per channel. */
  allow: Record<string, ApprovedSender[]>;
}

export interface ConfigIssue {
  path: string;
  message: string;
}

export interface ConfigRaw {
  raw: string;
  hash: string;
  /** Where the file lives, when the gateway says. */
  path?: string;
}

export interface DoctorPlan {
  changes: { key: string; from?: unknown; to?: unknown; note?: string }[];
  diff: string;
  /** What doctor cannot fix by itself. */
  problems?: string[];
}

/** One line of `logs.tail` (already scrubbed of secrets by the gateway). */
export interface LogLine {
  ts: number;
  level: "info" | "warn" | "error";
  message: string;
}
