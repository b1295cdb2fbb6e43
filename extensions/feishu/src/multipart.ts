/**
 * A multipart/form-data body (RFC 7578) for the Open API's uploads: text fields and files, in the
 * order given, between random boundaries (96 random bits, as form-data libraries use).
 */
import { randomBytes } from "node:crypto";

/** One part: a text field, or a file with its name. */
export type FormPart = { name: string; value: string } | { name: string; file: Uint8Array; fileName: string };

/** A name or file name in a `Content-Disposition` header: quotes, CR and LF escaped as browsers do. */
function quoted(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function multipartBody(parts: readonly FormPart[]): { contentType: string; body: Buffer } {
  const boundary = `----openclaw-${randomBytes(12).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = "file" in part;
    const disposition = `form-data; name="${quoted(part.name)}"${file ? `; filename="${quoted(part.fileName)}"` : ""}`;
    const type = file ? "\r\nContent-Type: application/octet-stream" : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, "utf8"));
    chunks.push(file ? Buffer.from(part.file.buffer, part.file.byteOffset, part.file.byteLength) : Buffer.from(part.value, "utf8"));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}
