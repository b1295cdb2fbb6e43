import type { FileHandle } from "node:fs/promises";

/** Bytes inspected to decide whether a file is binary. */
const SNIFF_BYTES = 8192;

/**
 * True when the first 8 KiB look binary: a NUL byte, or more than 10% control characters other
 * than tab, newline, carriage return, form feed and escape. UTF-8 text passes.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12 && byte !== 27) control++;
  }
  return control / sample.length > 0.1;
}

/** Reads the first bytes of an open file (from position 0) for {@link looksBinary}. */
export async function sniffHandle(handle: FileHandle): Promise<Uint8Array> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead);
}

/** Human-readable byte count: `512 B`, `1.5 KiB`, `3.2 MiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
