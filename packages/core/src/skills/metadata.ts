import JSON5 from "json5";
import { z } from "zod";
import type { SkillGating } from "./types.js";

const stringList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : typeof v === "string" ? [v] : v));

const gatingSchema = z.object({
  always: z.boolean().optional(),
  os: stringList,
  requires: z.object({ bins: stringList, anyBins: stringList, env: stringList, config: stringList }).optional(),
  primaryEnv: z.string().min(1).optional(),
  skillKey: z.string().min(1).optional(),
  emoji: z.string().optional(),
  homepage: z.string().optional(),
});

const OS_ALIASES: Record<string, string> = { macos: "darwin", mac: "darwin", windows: "win32" };

/** Result of reading the gating block out of the front matter. */
export type GatingResult = { ok: true; gating?: SkillGating } | { ok: false; error: string };

/**
 * Reads `metadata.openclaw` (or, when that is absent, the legacy `metadata.clawdbot`) from a
 * parsed front matter mapping. `metadata` and the block itself may also be JSON5 strings, as
 * written by tools that keep front matter single-line. No block means no gating.
 */
export function readGating(frontmatter: Record<string, unknown>): GatingResult {
  const meta = asMapping(frontmatter.metadata, "metadata");
  if (!meta.ok) return meta;
  if (meta.value === undefined) return { ok: true };
  const blockName = meta.value.openclaw !== undefined ? "openclaw" : "clawdbot";
  const block = asMapping(meta.value[blockName], `metadata.${blockName}`);
  if (!block.ok) return block;
  if (block.value === undefined) return { ok: true };
  const parsed = gatingSchema.safeParse(block.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ["metadata", blockName, ...(issue?.path ?? []).map(String)].join(".");
    return { ok: false, error: `${where}: ${issue?.message ?? "invalid value"}` };
  }
  const g = parsed.data;
  const gating: SkillGating = {
    always: g.always ?? false,
    os: g.os.map((o) => OS_ALIASES[o.toLowerCase()] ?? o.toLowerCase()),
    requires: {
      bins: g.requires?.bins ?? [],
      anyBins: g.requires?.anyBins ?? [],
      env: g.requires?.env ?? [],
      config: g.requires?.config ?? [],
    },
  };
  if (g.primaryEnv !== undefined) gating.primaryEnv = g.primaryEnv;
  if (g.skillKey !== undefined) gating.skillKey = g.skillKey;
  if (g.emoji !== undefined) gating.emoji = g.emoji;
  if (g.homepage !== undefined) gating.homepage = g.homepage;
  return { ok: true, gating };
}

type MappingResult = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; error: string };

function asMapping(value: unknown, where: string): MappingResult {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  let v = value;
  if (typeof v === "string") {
    if (v.trim() === "") return { ok: true, value: undefined };
    try {
      v = JSON5.parse(v);
    } catch (err) {
      return { ok: false, error: `${where} is not valid JSON5: ${(err as Error).message}` };
    }
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    return { ok: false, error: `${where} must be a mapping` };
  }
  return { ok: true, value: v as Record<string, unknown> };
}
