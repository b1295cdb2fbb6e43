/** Small helpers for printing command results. */

export function writeLine(stream: NodeJS.WritableStream, text = ""): void {
  stream.write(text.endsWith("\n") ? text : `${text}\n`);
}

export function writeJson(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints a config value: strings as they are, everything else as indented JSON. */
export function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
