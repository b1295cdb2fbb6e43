// The runtime half of scripts/lib/protobuf-reflection-plugin.mjs: from a protobufjs reflection
// root, the object that `pbjs -t static-module -w commonjs` would have exported, so the library
// that requires its generated module cannot tell the difference:
// - a namespace is a plain object of its members;
// - a message type is its constructor (`new T(props)`, `T.create`, `T.encode(m).finish()`,
//   `T.decode`, `T.verify`, `T.fromObject`, `T.toObject`, `m.toJSON()`) with its
//   nested types and enums as properties, and its fields' defaults on its prototype as pbjs sets
//   them (an unset `bytes` field reads as an empty Buffer, an unset 64-bit field as a Long);
// - an enum is an object of name -> number whose prototype maps number -> name.
// Members are built on first access: a constructor (and, on its first encode or decode, the
// type's coders) exists only for the types the program uses, where the generated module defines
// every one of them (and keeps their source text in memory) when it loads.
"use strict";

/**
 * A protobufjs `Root` of `json` (protobufjs's JSON of a schema) whose types are resolved on first
 * use. `Root.fromJSON` resolves every field of every type at once, and resolving a field puts its
 * default on the prototype of its type's constructor, so every type gets its constructor generated
 * (WAProto: ~1,000 generated functions at load). Here only the features (which encoding each
 * field takes: packed, delimited, presence, required) are resolved at once, as `resolveAll` does
 * first; protobufjs resolves a type's fields itself when it first sets up the type's coders or
 * constructor.
 */
function lazyRoot(protobuf, json) {
  const root = new protobuf.Root();
  if (json.options) root.setOptions(json.options);
  root.addJSON(json.nested);
  // protobufjs's own first step of `resolveAll` (7.5+, with editions): each object's features
  // from its edition and its parent's.
  root._resolveFeaturesRecursive(root._edition);
  return root;
}

/**
 * The static module's exports for `root` (a protobufjs `Root`), made with `protobuf`, the
 * protobufjs (light or full) that made the root.
 */
function staticModule(protobuf, root) {
  const exportsObject = {};
  defineMembers(protobuf, exportsObject, root);
  return exportsObject;
}

/** Defines `ns`'s nested types, enums and namespaces on `target`, each built on first access. */
function defineMembers(protobuf, target, ns) {
  for (const member of ns.nestedArray) {
    if (!(member instanceof protobuf.Type || member instanceof protobuf.Enum || member.constructor === protobuf.Namespace)) continue;
    Object.defineProperty(target, member.name, {
      configurable: true,
      enumerable: true,
      get() {
        const value = build(protobuf, member);
        Object.defineProperty(target, member.name, { value, configurable: true, enumerable: true, writable: true });
        return value;
      },
      set(value) {
        Object.defineProperty(target, member.name, { value, configurable: true, enumerable: true, writable: true });
      },
    });
  }
}

function build(protobuf, member) {
  if (member instanceof protobuf.Enum) return enumObject(member);
  if (member instanceof protobuf.Type) return messageClass(protobuf, member);
  const namespace = {};
  defineMembers(protobuf, namespace, member);
  return namespace;
}

/** pbjs's enum object: name -> number, and number -> name through its prototype. */
function enumObject(type) {
  const byId = {};
  const values = Object.create(byId);
  for (const [name, id] of Object.entries(type.values)) values[(byId[id] = name)] = id;
  return values;
}

function messageClass(protobuf, type) {
  const ctor = type.ctor;
  const { util } = protobuf;
  // Field.resolve puts the reflection's defaults on the prototype; pbjs's static code differs for
  // three kinds: a member of a oneof (null, not its type's default), bytes (an empty Buffer, not a
  // frozen empty array) and 64-bit integers (a Long even for a default of 0, where reflection may
  // leave a number).
  for (const field of type.fieldsArray) {
    field.resolve();
    if (field.repeated || field.map) continue;
    if (field.partOf) ctor.prototype[field.name] = null;
    else if (field.type === "bytes" && Array.isArray(ctor.prototype[field.name]) && ctor.prototype[field.name].length === 0)
      ctor.prototype[field.name] = util.newBuffer([]);
    else if (field.long && util.Long) {
      // pbjs marks only uint64 unsigned here (fixed64's default is a signed Long there).
      const value = ctor.prototype[field.name];
      const unsigned = field.type.charAt(0) === "u";
      if (typeof value === "number") ctor.prototype[field.name] = util.Long.fromNumber(value, unsigned);
      else if (value && value.unsigned !== unsigned) ctor.prototype[field.name] = util.Long.fromBits(value.low, value.high, unsigned);
    }
  }
  defineMembers(protobuf, ctor, type);
  return ctor;
}

module.exports = { lazyRoot, staticModule };
