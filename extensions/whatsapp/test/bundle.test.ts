// The published bundle (dist/bundle, what `openclaw plugins install whatsapp` installs): Baileys
// inside it runs WAProto from WAProto.proto through protobufjs's reflection
// (`bundle-extension.mjs --protobuf-reflection`) instead of the 5 MB of code pbjs generated. What
// the channel and Baileys do with it must give what Baileys' own WAProto gives: the bytes a
// message encodes to, the message a peer's bytes decode to, the app-state keys the auth state
// rebuilds from disk.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, it } from "vitest";

// Untyped CommonJS: the bundle's exports and Baileys' generated module.
const require = createRequire(import.meta.url);
const BUNDLE = new URL("../dist/bundle/baileys.cjs", import.meta.url);
const bundled: any = require(BUNDLE.pathname);
const { proto: generated }: any = require("baileys/WAProto/index.js");

const inbound = {
  key: { remoteJid: "15550001111@s.whatsapp.net", fromMe: false, id: "3EB0C0FFEE" },
  messageTimestamp: 1764547200,
  pushName: "Ada",
  message: {
    ephemeralMessage: {
      message: {
        extendedTextMessage: {
          text: "see the picture",
          contextInfo: {
            stanzaId: "3EB0BEEF",
            participant: "15550002222@s.whatsapp.net",
            quotedMessage: {
              imageMessage: { caption: "a cat", mediaKey: Buffer.from("0123456789abcdef0123456789abcdef"), fileLength: 52_000 },
            },
          },
        },
      },
    },
  },
};

it("holds the schema, not the generated code", () => {
  expect(statSync(BUNDLE).size).toBeLessThan(2.5 * 1024 * 1024);
  expect(readFileSync(BUNDLE, "utf8")).not.toContain("ADVDeviceIdentity.prototype.rawId");
});

it("encodes and decodes an inbound message as Baileys' generated WAProto does", () => {
  const bytes = bundled.WAProto.WebMessageInfo.encode(bundled.WAProto.WebMessageInfo.fromObject(inbound)).finish();
  const expected = generated.WebMessageInfo.encode(generated.WebMessageInfo.fromObject(inbound)).finish();
  expect(Buffer.from(bytes).toString("hex")).toBe(Buffer.from(expected).toString("hex"));

  const decoded = bundled.WAProto.WebMessageInfo.decode(expected);
  expect(decoded).toBeInstanceOf(bundled.WAProto.WebMessageInfo);
  expect(JSON.stringify(decoded)).toBe(JSON.stringify(generated.WebMessageInfo.decode(expected)));
  // What the channel reads from it (inbound.ts): the message inside the ephemeral wrapper.
  const content = bundled.normalizeMessageContent(decoded.message);
  expect(content.extendedTextMessage.text).toBe("see the picture");
  expect(content.extendedTextMessage.contextInfo.quotedMessage.imageMessage.caption).toBe("a cat");
  expect(String(decoded.messageTimestamp)).toBe("1764547200");
  // Unset fields read as the generated code's defaults.
  expect(Buffer.isBuffer(decoded.mediaCiphertextSha256)).toBe(true);
  expect(decoded.status).toBe(0);
  expect(bundled.WAProto.WebMessageInfo.Status[decoded.status]).toBe("ERROR");
});

it("rebuilds app-state sync keys from their saved JSON as the auth state does", () => {
  const key = {
    keyData: Buffer.from("k".repeat(32)),
    fingerprint: { rawId: 7, currentIndex: 2, deviceIndexes: [0, 1] },
    timestamp: 1764547200,
  };
  const saved = JSON.parse(JSON.stringify(key, bundled.BufferJSON.replacer), bundled.BufferJSON.reviver);
  const rebuilt = bundled.WAProto.Message.AppStateSyncKeyData.fromObject(saved);
  const expected = generated.Message.AppStateSyncKeyData.fromObject(saved);
  expect(Buffer.from(bundled.WAProto.Message.AppStateSyncKeyData.encode(rebuilt).finish()).toString("hex")).toBe(
    Buffer.from(generated.Message.AppStateSyncKeyData.encode(expected).finish()).toString("hex"),
  );
  expect(rebuilt.fingerprint.deviceIndexes).toEqual([0, 1]);
});
