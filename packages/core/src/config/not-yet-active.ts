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
  const scopes: [string, { sandbox?: { mode?: string } | undefined }][] = [
    ["agents.defaults", config.agents.defaults],
    ...Object.entries(config.agents.entries ?? {}).map(([id, e]) => [`agents.entries.${id}`, e] as [string, typeof e]),
  ];
  for (const [path, scope] of scopes) {
    if (scope.sandbox !== undefined && scope.sandbox.mode !== "off") {
      warnings.push(
        `${path}.sandbox is accepted but this version does not sandbox sessions yet: tools run on the host, confined to the workspace by the file-tool guard only.`,
      );
    }
  }
  return warnings;
}
