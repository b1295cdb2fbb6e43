import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent } from "./http-stream.js";

async function parse(pieces: string[]): Promise<ServerSentEvent[]> {
  const bytes = new TextEncoder().encode(pieces.join(""));
  // Chunk the encoded bytes at the piece boundaries (a multi-byte character may be a chunk of its own).
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const piece of pieces) {
    const length = new TextEncoder().encode(piece).length;
    chunks.push(bytes.subarray(at, at + length));
    at += length;
  }
  const out: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(chunks)) out.push(event);
  return out;
}

describe("readServerSentEvents", () => {
  it("splits events at blank lines whatever the line ends, joining data lines and skipping comments", async () => {
    const events = await parse([": keep-alive\n\n", "data: one\r\n\r\n", "event: ping\rdata: a\rdata: b\r\r", "data:no-space\n\n"]);
    expect(events).toEqual([
      { event: "message", data: "one" },
      { event: "ping", data: "a\nb" },
      { event: "message", data: "no-space" },
    ]);
  });

  it("reassembles events and characters cut across chunks, including a CRLF cut in half", async () => {
    const events = await parse(['data: {"text":"h', "é", 'llo"}\r', "\n\r", "\n", "data: [DONE]\n", "\n"]);
    expect(events).toEqual([
      { event: "message", data: '{"text":"héllo"}' },
      { event: "message", data: "[DONE]" },
    ]);
  });

  it("drops an event the body ends before terminating", async () => {
    expect(await parse(["data: whole\n\n", "data: cut off"])).toEqual([{ event: "message", data: "whole" }]);
  });
});
