/**
 * Per-room streaming: `streaming.rooms.<room>` laid over the account's `streaming`, as the session
 * gives it to core (`AccountSession.streamingFor`) and as the outbound reads the mode (a `quiet`
 * preview is an `m.notice`).
 */
import type { StreamingConfig } from "@openclaw/plugin-sdk";
import { isPlainObject } from "@openclaw/plugin-sdk/config";

/** A streaming mode of Matrix. */
export type MatrixStreamingMode = "off" | "partial" | "quiet" | "progress";

/** One room's overrides (`streaming.rooms.<roomId|#alias>`). */
export interface MatrixRoomStreaming {
  mode?: MatrixStreamingMode;
  /** Keys of `streaming.progress` for this room, laid over the account's. */
  progress?: Record<string, unknown>;
}

/** An account's streaming settings. */
export interface MatrixStreaming {
  /** `streaming.mode` (default "off"). */
  mode: MatrixStreamingMode;
  /** Per-room overrides by room id or `#alias:server` (an account's rooms merged over the channel's). */
  rooms: Record<string, MatrixRoomStreaming>;
  /** The account's `streaming` object as configured, without `rooms`. */
  config: StreamingConfig;
}

/** Reads the account's merged `streaming` object (validated by the schema). */
export function parseMatrixStreaming(raw: unknown): MatrixStreaming {
  const { rooms: rawRooms, ...config } = isPlainObject(raw) ? raw : {};
  const rooms: Record<string, MatrixRoomStreaming> = {};
  if (isPlainObject(rawRooms)) {
    for (const [key, room] of Object.entries(rawRooms)) {
      if (!isPlainObject(room)) continue;
      rooms[key] = {
        ...(typeof room.mode === "string" ? { mode: room.mode as MatrixStreamingMode } : {}),
        ...(isPlainObject(room.progress) ? { progress: room.progress } : {}),
      };
    }
  }
  return { mode: (config.mode as MatrixStreamingMode | undefined) ?? "off", rooms, config: config as StreamingConfig };
}

/** The override of the first of `keys` (a room id, then its aliases) that has one. */
function roomEntry(streaming: MatrixStreaming, keys: readonly string[]): MatrixRoomStreaming | undefined {
  for (const key of keys) {
    const entry = streaming.rooms[key];
    if (entry) return entry;
  }
  return undefined;
}

/**
 * The effective `streaming` of a room: the account's object with the room's `mode` and `progress`
 * keys over it; undefined when the room has no override (the account's applies).
 */
export function roomStreamingConfig(streaming: MatrixStreaming, keys: readonly string[]): StreamingConfig | undefined {
  const room = roomEntry(streaming, keys);
  if (!room) return undefined;
  const progress = room.progress ? { ...(streaming.config.progress ?? {}), ...room.progress } : streaming.config.progress;
  return {
    ...streaming.config,
    mode: room.mode ?? streaming.mode,
    ...(progress ? { progress } : {}),
  };
}

/** The streaming mode of a room: its override's, else the account's. */
export function roomStreamingMode(streaming: MatrixStreaming, keys: readonly string[]): MatrixStreamingMode {
  return roomEntry(streaming, keys)?.mode ?? streaming.mode;
}
