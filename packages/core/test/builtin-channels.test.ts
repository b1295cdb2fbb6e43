import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUILTIN_CHANNELS } from "../src/config/index.js";

// Each channel package owns its config definition; core keeps fallback copies so that doctor can
// migrate and validate a channel's config before its plugin is installed. They must not drift.
const PACKAGES: Record<string, () => Promise<{ default: { id: string; schema: z.ZodType; migrations: readonly { id: string }[] } }>> = {
  telegram: () => import("@openclaw/telegram/config"),
};

describe("built-in channel definitions match their packages", () => {
  for (const [id, load] of Object.entries(PACKAGES)) {
    it(id, async () => {
      const own = (await load()).default;
      const builtin = BUILTIN_CHANNELS.find((c) => c.id === id)!;
      const json = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" });
      expect(json(builtin.schema)).toEqual(json(own.schema));
      expect(builtin.migrations.map((m) => m.id)).toEqual(own.migrations.map((m) => m.id));
    });
  }
});
