// The relay's wire format between `startFakeWhatsAppServer` (the test process) and
// `remoteSocketFactory` (the plugin's process): JSON frames, bytes in the format of Baileys'
// BufferJSON, written here so that the client side never loads Baileys (the plugin under test
// brings its own, bundled). For tests only.
import type { RawData } from "ws";

/** Messages of the relay protocol. */
export type ClientFrame = { op: "make"; creds: Record<string, unknown> } | { op: "call"; id: number; method: string; args: unknown[] };
export type ServerFrame =
  | { op: "event"; event: string; data: unknown }
  | { op: "frame" }
  | { op: "result"; id: number; value?: unknown; error?: { message: string; statusCode?: number } };

/** Baileys' `BufferJSON.replacer`: bytes as `{ type: "Buffer", data: <base64> }`. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array || (value as { type?: unknown } | null)?.type === "Buffer") {
    const bytes = value instanceof Uint8Array ? value : (value as { data: ArrayLike<number> | string }).data;
    return { type: "Buffer", data: Buffer.from(bytes as Uint8Array).toString("base64") };
  }
  return value;
}

/** Baileys' `BufferJSON.reviver`: `{ type: "Buffer", data }` (or `{ buffer: true, value }`) back to a Buffer. */
function reviver(_key: string, value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    const v = value as { type?: unknown; buffer?: unknown; data?: unknown; value?: unknown };
    if (v.buffer === true || v.type === "Buffer") {
      const data = v.data ?? v.value;
      return typeof data === "string" ? Buffer.from(data, "base64") : Buffer.from((data ?? []) as number[]);
    }
  }
  return value;
}

export const encode = (frame: unknown): string => JSON.stringify(frame, replacer);
export const decode = <T>(data: RawData): T => JSON.parse(data.toString(), reviver) as T;

export const METHODS = ["sendMessage", "sendPresenceUpdate", "readMessages", "requestPairingCode", "logout", "end"] as const;
