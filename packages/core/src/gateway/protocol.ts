// The control API's wire format: JSON text frames over one WebSocket.

/** Version of the frame protocol; reported in the `connect` reply. */
export const PROTOCOL_VERSION = 1;

/** Largest frame accepted from an authenticated client (4 MiB). */
export const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

/** Largest frame accepted before `connect` succeeded (64 KiB). */
export const MAX_PREAUTH_BYTES = 64 * 1024;

/** A call from the client. `id` is echoed in the response. */
export interface RequestFrame {
  type: "req";
  id: string;
  method: string;
  params?: unknown;
}

/** Error codes a response may carry. */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "unknown_method"
  | "invalid_params"
  | "not_found"
  | "conflict"
  | "shutting_down"
  | "payload_too_large"
  | "internal";

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** The answer to one request. */
export type ResponseFrame =
  | { type: "res"; id: string; ok: true; payload: unknown }
  | { type: "res"; id: string; ok: false; error: ErrorShape };

/** Something the server reports on its own; `seq` increases by one per event on a connection. */
export interface EventFrame {
  type: "event";
  event: string;
  payload: unknown;
  seq: number;
}

export type ServerFrame = ResponseFrame | EventFrame;

/** A request handler's way to fail with a specific code. */
export class ControlError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ControlError";
  }
}

/**
 * Parses one text frame into a request. Throws a ControlError `bad_request` naming what is wrong
 * (not JSON, not an object, `type` is not "req", `id` or `method` missing).
 */
export function parseRequestFrame(text: string): RequestFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ControlError("bad_request", "the frame is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ControlError("bad_request", "a frame must be a JSON object");
  const frame = value as Record<string, unknown>;
  if (frame.type !== "req") throw new ControlError("bad_request", 'only request frames ({"type":"req", ...}) are accepted');
  if (typeof frame.id !== "string" || frame.id === "") throw new ControlError("bad_request", 'a request needs a non-empty string "id"');
  if (typeof frame.method !== "string" || frame.method === "")
    throw new ControlError("bad_request", 'a request needs a non-empty string "method"');
  return { type: "req", id: frame.id, method: frame.method, ...(frame.params !== undefined ? { params: frame.params } : {}) };
}

/** The `id` of a frame that failed to parse, when it has a usable one (so the error can be answered). */
export function frameIdOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as { id?: unknown };
    return typeof value?.id === "string" ? value.id : undefined;
  } catch {
    return undefined;
  }
}
