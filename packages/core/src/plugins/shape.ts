// Structural checks of what a plugin's modules export, so a wrong export is refused at load time
// with the member named, instead of failing when a message arrives.
import { type ChannelPlugin, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";

/** The kinds of channel migration data the SDK compiles (see `ChannelMigration`). */
const MIGRATION_KINDS: readonly string[] = ["streaming-aliases", "key-move", "open-means-allowlist-with-entries"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function checkMembers(value: Record<string, unknown>, spec: Record<string, string>, prefix: string, out: string[]): void {
  for (const [key, kind] of Object.entries(spec)) {
    const v = value[key];
    const ok =
      kind === "function"
        ? typeof v === "function"
        : kind === "string"
          ? typeof v === "string" && v.length > 0
          : kind === "boolean"
            ? typeof v === "boolean"
            : kind === "array"
              ? Array.isArray(v)
              : kind === "object"
                ? isObject(v)
                : kind === "positive integer"
                  ? Number.isInteger(v) && (v as number) > 0
                  : false;
    if (!ok) out.push(`${prefix}${key} must be ${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}${v === undefined ? " (missing)" : ""}`);
  }
}

/**
 * What is wrong with a `ChannelConfigDefinition` export (empty when nothing), checking that its
 * id is one of `channels` (the manifest's).
 */
export function configDefinitionIssues(value: unknown, channels: readonly string[], prefix = ""): string[] {
  if (!isObject(value)) return [`${prefix || "the export"} must be a ChannelConfigDefinition object`];
  const out: string[] = [];
  checkMembers(
    value,
    {
      id: "string",
      label: "string",
      packageName: "string",
      schema: "object",
      migrations: "array",
      capabilities: "object",
      delivery: "object",
    },
    prefix,
    out,
  );
  if (typeof value.id === "string" && !channels.includes(value.id)) {
    out.push(`${prefix}id "${value.id}" is not one of the manifest's channels (${channels.join(", ")})`);
  }
  if (isObject(value.schema) && typeof value.schema.safeParse !== "function") out.push(`${prefix}schema must be a zod schema`);
  if (Array.isArray(value.migrations)) {
    value.migrations.forEach((rule, i) => {
      if (!isObject(rule) || !MIGRATION_KINDS.includes(rule.kind as string)) {
        out.push(`${prefix}migrations[${i}] must be migration data ({ kind: ${MIGRATION_KINDS.map((k) => `"${k}"`).join(" | ")}, ... })`);
      }
    });
  }
  if (isObject(value.capabilities)) {
    checkMembers(
      value.capabilities,
      {
        chatTypes: "array",
        edit: "boolean",
        delete: "boolean",
        media: "boolean",
        reactions: "boolean",
        threads: "boolean",
        typing: "boolean",
        textLimit: "positive integer",
      },
      `${prefix}capabilities.`,
      out,
    );
  }
  if (isObject(value.delivery)) {
    checkMembers(value.delivery, { previewModes: "array", blockReplies: "string" }, `${prefix}delivery.`, out);
    if (!(value.delivery.defaultMode === null || typeof value.delivery.defaultMode === "string")) {
      out.push(`${prefix}delivery.defaultMode must be a string or null`);
    }
  }
  return out;
}

/** What is wrong with a `ChannelPlugin` export (empty when nothing). */
export function channelPluginIssues(value: unknown, channels: readonly string[]): string[] {
  if (!isObject(value)) return ["the default export must be a ChannelPlugin object"];
  const out: string[] = [];
  if (value.specificationVersion !== SPECIFICATION_VERSION) {
    const found =
      value.specificationVersion === undefined ? "none (a plugin for contract version 1)" : JSON.stringify(value.specificationVersion);
    out.push(
      `specificationVersion must be ${SPECIFICATION_VERSION} (this OpenClaw implements channel contract version ${SPECIFICATION_VERSION}; the plugin declares ${found}); update the plugin`,
    );
  }
  checkMembers(
    value,
    { id: "string", meta: "object", config: "object", listAccounts: "function", resolveAccount: "function", connect: "function" },
    "",
    out,
  );
  if (typeof value.id === "string" && !channels.includes(value.id)) {
    out.push(`id "${value.id}" is not one of the manifest's channels (${channels.join(", ")})`);
  }
  for (const key of ["login", "logout"]) {
    if (value[key] !== undefined && typeof value[key] !== "function") out.push(`${key} must be a function when present`);
  }
  if (isObject(value.meta)) checkMembers(value.meta, { label: "string", docsPath: "string", blurb: "string" }, "meta.", out);
  if (isObject(value.config)) {
    out.push(...configDefinitionIssues(value.config, channels, "config."));
    if (typeof value.config.id === "string" && value.config.id !== value.id)
      out.push(`config.id "${value.config.id}" differs from id "${String(value.id)}"`);
  }
  return out;
}

export const asConfigDefinition = (v: unknown) => v as ChannelConfigDefinition;
export const asChannelPlugin = (v: unknown) => v as ChannelPlugin;
