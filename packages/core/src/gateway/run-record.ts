import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { GatewayBind } from "./types.js";

/**
 * What a running gateway writes to `<stateDir>/gateway.json`, so that CLI commands find it on the
 * port it actually listens on (`--port`, `OPENCLAW_GATEWAY_PORT`, or a free one with port 0).
 */
export interface GatewayRunRecord {
  pid: number;
  /** The port it listens on. */
  port: number;
  bind: GatewayBind;
  /** Epoch milliseconds. */
  startedAt: number;
}

/** `<stateDir>/gateway.json`. */
export function gatewayRecordPath(stateDir: string): string {
  return path.join(stateDir, "gateway.json");
}

/** Writes the record (mode 0600, replacing any other atomically). */
export function writeGatewayRecord(stateDir: string, record: GatewayRunRecord): void {
  const file = gatewayRecordPath(stateDir);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function readRecord(stateDir: string): GatewayRunRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(gatewayRecordPath(stateDir), "utf8")) as Partial<GatewayRunRecord>;
    if (!Number.isInteger(value.pid) || !Number.isInteger(value.port) || value.port! <= 0 || value.port! > 65535) return undefined;
    return {
      pid: value.pid!,
      port: value.port!,
      bind: value.bind === "lan" ? "lan" : "loopback",
      startedAt: typeof value.startedAt === "number" ? value.startedAt : 0,
    };
  } catch {
    return undefined;
  }
}

/** Removes the record when it is still the one `pid` wrote for `port` (a newer gateway's record stays). */
export function removeGatewayRecord(stateDir: string, pid: number, port: number): void {
  const record = readRecord(stateDir);
  if (record && record.pid === pid && record.port === port) rmSync(gatewayRecordPath(stateDir), { force: true });
}

/** True when a process with this pid exists (signal 0 checks without signalling; EPERM means it exists). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The record of the gateway running on this state folder, or undefined when there is none, it
 * does not parse, or its process is gone (a gateway that was killed leaves its record behind).
 */
export function readLiveGatewayRecord(stateDir: string, alive: (pid: number) => boolean = processAlive): GatewayRunRecord | undefined {
  const record = readRecord(stateDir);
  return record && alive(record.pid) ? record : undefined;
}
