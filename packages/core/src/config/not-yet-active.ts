import type { z } from "zod";
import type { ConfigRegistry } from "./registry.js";

type Config = z.output<ConfigRegistry["schema"]>;

/**
 * Keys the schema accepts (so configs written for the reference stay valid) but this version
 * does not act on yet. Each one set is reported as a warning by `openclaw config validate` and
 * at gateway start, so nothing is silently ignored.
 */
export function notYetActiveWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const scopes: [string, { heartbeat?: unknown; sandbox?: { mode?: string } | undefined }][] = [
    ["agents.defaults", config.agents.defaults],
    ...Object.entries(config.agents.entries ?? {}).map(([id, e]) => [`agents.entries.${id}`, e] as [string, typeof e]),
  ];
  for (const [path, scope] of scopes) {
    if (scope.heartbeat !== undefined) {
      warnings.push(`${path}.heartbeat is accepted but this version does not run heartbeat turns yet; the setting has no effect.`);
    }
  }
  return warnings;
}
