import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export interface RotatingFileOptions {
  /** The live file, e.g. `<stateDir>/logs/gateway.log`; its directory is created. */
  file: string;
  /** Rotate before a write would take the live file past this size. Default 10 MiB. */
  maxBytes?: number;
  /** How many rotated files to keep (`gateway.log.1` newest … `gateway.log.<keep>` oldest). Default 5. */
  keep?: number;
}

/** Default size of one log file before it rotates. */
export const DEFAULT_LOG_MAX_BYTES = 10 * 1024 * 1024;
/** Default number of rotated log files kept beside the live one. */
export const DEFAULT_LOG_KEEP = 5;

/**
 * An append-only file that rotates by size: when the next write would take it past `maxBytes`,
 * `file` becomes `file.1`, `file.1` becomes `file.2`, and so on; `file.<keep>` is deleted. Writes
 * are synchronous, whole lines at a time, so a line is never split across two files and a crash
 * loses nothing already written. A single write larger than `maxBytes` goes whole into a fresh file.
 */
export class RotatingFile {
  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private fd: number;
  private size: number;

  constructor(options: RotatingFileOptions) {
    this.file = options.file;
    this.maxBytes = options.maxBytes ?? DEFAULT_LOG_MAX_BYTES;
    this.keep = Math.max(0, options.keep ?? DEFAULT_LOG_KEEP);
    mkdirSync(path.dirname(this.file), { recursive: true });
    this.fd = openSync(this.file, "a", 0o600);
    this.size = fstatSync(this.fd).size;
  }

  /** Appends `chunk` (one or more whole lines), rotating first when it would not fit. */
  write(chunk: string): boolean {
    const bytes = Buffer.from(chunk);
    if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
    writeSync(this.fd, bytes);
    this.size += bytes.length;
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }

  private rotate(): void {
    closeSync(this.fd);
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) renameIfExists(`${this.file}.${i}`, `${this.file}.${i + 1}`);
    if (this.keep > 0) renameSync(this.file, `${this.file}.1`);
    else rmSync(this.file, { force: true });
    this.fd = openSync(this.file, "a", 0o600);
    this.size = 0;
  }
}

function renameIfExists(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}
