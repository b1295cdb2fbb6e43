// The hand-written pbbp2.Frame codec against protobufjs (the library the SDK encodes frames with),
// loaded from the SDK's own dependencies and given the SDK's schema.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { decodeFrame, encodeFrame, type Frame } from "./frame.js";

const sdkRequire = createRequire(createRequire(import.meta.url).resolve("@larksuiteoapi/node-sdk"));
/** The part of protobufjs this test uses (the package is the SDK's dependency, not the testkit's). */
interface Protobuf {
  parse(source: string): { root: { lookupType(name: string): PbType } };
}
interface PbType {
  fromObject(object: object): object;
  encode(message: object): { finish(): Uint8Array };
}
const protobuf = sdkRequire("protobufjs") as Protobuf;
const root = protobuf.parse(`
  syntax = "proto2";
  package pbbp2;
  message Header { required string key = 1; required string value = 2; }
  message Frame {
    required uint64 SeqID = 1; required uint64 LogID = 2; required int32 service = 3; required int32 method = 4;
    repeated Header headers = 5; optional string payloadEncoding = 6; optional string payloadType = 7;
    optional bytes payload = 8; optional string LogIDNew = 9;
  }`).root;
const PbFrame = root.lookupType("pbbp2.Frame");

const frames: Frame[] = [
  { SeqID: 0, LogID: 0, service: 33554678, method: 0, headers: [{ key: "type", value: "ping" }] },
  {
    SeqID: 2 ** 40 + 7,
    LogID: 123456789012,
    service: 1,
    method: 1,
    headers: [
      { key: "type", value: "event" },
      { key: "message_id", value: "消息-1" },
      { key: "sum", value: "2" },
      { key: "seq", value: "1" },
    ],
    payloadEncoding: "",
    payloadType: "json",
    payload: new TextEncoder().encode(JSON.stringify({ schema: "2.0", text: "长".repeat(100) })),
    LogIDNew: "log-new",
  },
];

describe("pbbp2.Frame codec", () => {
  it("encodes byte for byte as protobufjs does with the SDK's schema", () => {
    for (const frame of frames) {
      expect(Buffer.from(encodeFrame(frame)).toString("hex")).toBe(
        Buffer.from(PbFrame.encode(PbFrame.fromObject(frame)).finish()).toString("hex"),
      );
    }
  });

  it("decodes what protobufjs encodes, and refuses a frame without its required fields", () => {
    for (const frame of frames) {
      const decoded = decodeFrame(PbFrame.encode(PbFrame.fromObject(frame)).finish());
      expect({ ...decoded, payload: decoded.payload && Buffer.from(decoded.payload).toString() }).toEqual({
        ...frame,
        payload: frame.payload && Buffer.from(frame.payload).toString(),
      });
    }
    expect(() => decodeFrame(Uint8Array.from([8, 1]))).toThrow(/missing required 'LogID'/);
  });
});
