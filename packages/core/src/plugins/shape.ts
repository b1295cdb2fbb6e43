// Structural checks of what a plugin's modules export, so a wrong export is refused at load time
// with the member named, instead of failing when a message arrives.
import type { ChannelConfigDefinition, ChannelPlugin } from "@openclaw/plugin-sdk";

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
    { id: "string", label: "string", packageName: "string", schema: "object", migrations: "array", streamingDefaults: "object" },
    prefix,
    out,
  );
  if (typeof value.id === "string" && !channels.includes(value.id)) {
    out.push(`${prefix}id "${value.id}" is not one of the manifest's channels (${channels.join(", ")})`);
  }
  if (isObject(value.schema) && typeof value.schema.safeParse !== "function") out.push(`${prefix}schema must be a zod schema`);
  if (Array.isArray(value.migrations)) {
    value.migrations.forEach((rule, i) => {
      if (!isObject(rule) || typeof rule.detect !== "function" || typeof rule.apply !== "function") {
        out.push(`${prefix}migrations[${i}] must be a LegacyKeyRule (with detect and apply)`);
      }
    });
  }
  return out;
}

/** What is wrong with a `ChannelPlugin` export (empty when nothing). */
export function channelPluginIssues(value: unknown, channels: readonly string[]): string[] {
  if (!isObject(value)) return ["the default export must be a ChannelPlugin object"];
  const out: string[] = [];
  checkMembers(
    value,
    {
      id: "string",
      meta: "object",
      capabilities: "object",
      config: "object",
      listAccounts: "function",
      resolveAccount: "function",
      createOutbound: "function",
      start: "function",
    },
    "",
    out,
  );
  if (typeof value.id === "string" && !channels.includes(value.id)) {
    out.push(`id "${value.id}" is not one of the manifest's channels (${channels.join(", ")})`);
  }
  if (isObject(value.meta)) checkMembers(value.meta, { label: "string", docsPath: "string", blurb: "string" }, "meta.", out);
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
      "capabilities.",
      out,
    );
  }
  if (isObject(value.config)) {
    out.push(...configDefinitionIssues(value.config, channels, "config."));
    if (typeof value.config.id === "string" && value.config.id !== value.id)
      out.push(`config.id "${value.config.id}" differs from id "${String(value.id)}"`);
  }
  return out;
}

export const asConfigDefinition = (v: unknown) => v as ChannelConfigDefinition;
export const asChannelPlugin = (v: unknown) => v as ChannelPlugin;
