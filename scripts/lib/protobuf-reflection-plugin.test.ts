// `scripts/bundle-extension.mjs --protobuf-reflection` on Baileys' WAProto (what the WhatsApp
// channel's bundle uses): the module built from WAProto.proto with protobufjs's reflection must be
// indistinguishable from the module pbjs generated, for every message type and enum of the schema:
// the same members, enums and prototype defaults, and for random messages of every type the same
// bytes from encode, the same objects from decode, fromObject, toObject and verify.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a build script without types
import { protobufReflectionPlugin } from "./protobuf-reflection-plugin.mjs";

const WHATSAPP_SRC = fileURLToPath(new URL("../../extensions/whatsapp/src/", import.meta.url));
const fromWhatsApp = createRequire(path.join(WHATSAPP_SRC, "noop.js"));
const GENERATED = fromWhatsApp.resolve("baileys/WAProto/index.js");
const PROTO = fromWhatsApp.resolve("baileys/WAProto/WAProto.proto");
const fromBaileys = createRequire(GENERATED);

// protobufjs's runtime objects, compared structurally.
type Any = any;
let dir: string;
let generated: Any; // pbjs's static module, as Baileys ships it
let reflected: Any; // the module the plugin builds in its place
let schema: Any; // the schema, parsed by protobufjs, to make random messages

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "protobuf-reflection-"));
  const outfile = path.join(dir, "waproto.cjs");
  await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(GENERATED)});`, resolveDir: WHATSAPP_SRC },
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile,
    logLevel: "silent",
    plugins: [protobufReflectionPlugin(["baileys/WAProto/index.js=baileys/WAProto/WAProto.proto"], { resolveDir: WHATSAPP_SRC })],
  });
  // The bundle holds the schema instead of the generated code: a fraction of its size.
  expect(statSync(outfile).size).toBeLessThan(statSync(GENERATED).size / 10);
  reflected = createRequire(outfile)(outfile);
  generated = fromBaileys(GENERATED);
  schema = fromBaileys("protobufjs").loadSync(PROTO);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every message type and enum of the schema, by full name (without the leading dot). */
function members(): { types: Any[]; enums: Any[] } {
  const types: Any[] = [];
  const enums: Any[] = [];
  const walk = (ns: Any) => {
    for (const m of ns.nestedArray ?? []) {
      if (m.fieldsArray) types.push(m);
      else if (m.values) enums.push(m);
      walk(m);
    }
  };
  walk(schema);
  return { types, enums };
}
const at = (root: Any, fullName: string) =>
  fullName
    .slice(1)
    .split(".")
    .reduce((o, k) => o[k], root);

/** A value for `field` that any decoder accepts, from a small deterministic generator. */
function randomObject(type: Any, next: () => number, depth = 0): Any {
  const object: Any = {};
  const oneofTaken = new Set<string>();
  for (const field of type.fieldsArray) {
    field.resolve();
    if (!field.required && next() < 0.35) continue;
    if (field.partOf) {
      if (oneofTaken.has(field.partOf.name)) continue;
      oneofTaken.add(field.partOf.name);
    }
    const one = () => randomValue(field, next, depth);
    if (field.map) {
      const value = randomValue(field, next, depth);
      if (value !== undefined) object[field.name] = { [field.keyType === "string" ? "k" : "7"]: value };
    } else if (field.repeated) {
      const values = [one(), one()].filter((v) => v !== undefined);
      object[field.name] = values;
    } else {
      const value = one();
      if (value !== undefined) object[field.name] = value;
    }
  }
  return object;
}

function randomValue(field: Any, next: () => number, depth: number): Any {
  const t = field.resolvedType;
  if (t?.values) {
    const ids = Object.values(t.values) as number[];
    return ids[Math.floor(next() * ids.length)];
  }
  if (t?.fieldsArray) return depth >= (field.required ? 6 : 2) ? undefined : randomObject(t, next, depth + 1);
  const n = Math.floor(next() * 2 ** 31);
  switch (field.type) {
    case "string":
      return `s${n.toString(36)}é`;
    case "bytes":
      return Buffer.from([n & 255, (n >> 8) & 255, 0, 255]);
    case "bool":
      return n % 2 === 0;
    case "double":
    case "float":
      return (n % 1000) / 8;
    case "int32":
    case "sint32":
    case "sfixed32":
      return n % 2 === 0 ? -n : n;
    case "uint32":
    case "fixed32":
      return n;
    default: // 64-bit
      return field.type.startsWith("u") || field.type === "fixed64" ? `${n}${n}` : `-${n}${n}`;
  }
}

const TO_OBJECT = { longs: String, enums: String, bytes: String, defaults: true, arrays: true, objects: true, oneofs: true };

describe("--protobuf-reflection on Baileys' WAProto", () => {
  it("exports the same namespaces, types and enums, with the same members, enum values and prototype defaults", () => {
    const { types, enums } = members();
    expect(types.length).toBeGreaterThan(300);
    expect(Object.keys(reflected)).toEqual(Object.keys(generated));
    expect(Object.keys(reflected.proto)).toEqual(Object.keys(generated.proto));
    for (const e of enums) {
      const [a, b] = [at(reflected, e.fullName), at(generated, e.fullName)];
      expect({ ...a }, e.fullName).toEqual({ ...b });
      expect({ ...Object.getPrototypeOf(a) }, e.fullName).toEqual({ ...Object.getPrototypeOf(b) });
    }
    for (const t of types) {
      const [a, b] = [at(reflected, t.fullName), at(generated, t.fullName)];
      expect(typeof a, t.fullName).toBe("function");
      expect(
        Object.keys(a).filter((k) => k !== "$type"),
        t.fullName,
      ).toEqual(Object.keys(b));
      expect(a.name).toBe(b.name);
      for (const field of t.fieldsArray) {
        const [da, db] = [a.prototype[field.name], b.prototype[field.name]];
        const shown = (v: Any) => (v && typeof v === "object" && "low" in v ? `Long(${v.toString()}, ${v.unsigned})` : v);
        expect(shown(da), `${t.fullName}.${field.name}`).toEqual(shown(db));
        expect(Buffer.isBuffer(da), `${t.fullName}.${field.name}`).toBe(Buffer.isBuffer(db));
      }
      for (const oneof of t.oneofsArray) {
        const instance = b.fromObject({});
        expect(a.fromObject({})[oneof.name], `${t.fullName}.${oneof.name}`).toEqual(instance[oneof.name]);
      }
    }
  });

  it("encodes, decodes, converts and verifies random messages of every type as pbjs's code does", () => {
    let seed = 19;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const { types } = members();
    let compared = 0;
    for (const t of types) {
      const [A, B] = [at(reflected, t.fullName), at(generated, t.fullName)];
      for (let round = 0; round < 3; round++) {
        const object = randomObject(t, next);
        expect(A.verify(object), t.fullName).toEqual(B.verify(object));
        const bytesB = B.encode(B.fromObject(object)).finish();
        const bytesA = A.encode(A.fromObject(object)).finish();
        expect(Buffer.from(bytesA).toString("hex"), t.fullName).toBe(Buffer.from(bytesB).toString("hex"));
        const [decodedA, decodedB] = [A.decode(bytesB), B.decode(bytesA)];
        expect(decodedA).toBeInstanceOf(A);
        expect(A.toObject(decodedA, TO_OBJECT), t.fullName).toEqual(B.toObject(decodedB, TO_OBJECT));
        expect(JSON.stringify(decodedA), t.fullName).toBe(JSON.stringify(decodedB));
        expect(Object.keys(decodedA), t.fullName).toEqual(Object.keys(decodedB));
        compared++;
      }
    }
    expect(compared).toBe(types.length * 3);
  }, 60_000);

  it("fails the build with the fix when the option is malformed", () => {
    expect(() => protobufReflectionPlugin(["baileys/WAProto/index.js"], { resolveDir: WHATSAPP_SRC })).toThrow(
      /expected <generated module>=<proto file>/,
    );
  });
});
