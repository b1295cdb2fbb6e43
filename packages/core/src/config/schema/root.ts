import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import { z } from "zod";
import { agentsSchema } from "./agents.js";
import { bindingsSchema } from "./bindings.js";
import { gatewaySchema } from "./gateway.js";
import { messagesSchema } from "./messages.js";
import { modelsSchema } from "./models.js";
import { pluginsSchema } from "./plugins.js";
import { sessionSchema } from "./session.js";
import { skillsSchema } from "./skills.js";
import { toolsSchema } from "./tools.js";

/**
 * Builds the strict schema of openclaw.json from the definitions of the installed channel
 * plugins; `uninstalled` channels (known by name, plugin not installed) accept any object until
 * their plugin is installed. Unknown keys are errors everywhere; only `$schema` is tolerated at
 * the root.
 */
export function buildConfigSchema(
  channels: readonly ChannelConfigDefinition[],
  uninstalled: readonly { id: string; packageName: string }[] = [],
) {
  const channelShape: Record<string, z.ZodType> = {};
  for (const c of uninstalled) {
    channelShape[c.id] = z
      .record(z.string(), z.unknown())
      .optional()
      .describe(`Settings of the ${c.id} channel; checked once its plugin (${c.packageName}) is installed.`);
  }
  for (const def of channels) channelShape[def.id] = def.schema.optional();
  return z
    .strictObject({
      $schema: z.string().optional().describe("Editor hint pointing at the JSON Schema; ignored."),
      agents: agentsSchema,
      bindings: bindingsSchema,
      session: sessionSchema,
      messages: messagesSchema,
      tools: toolsSchema,
      models: modelsSchema,
      skills: skillsSchema,
      plugins: pluginsSchema,
      gateway: gatewaySchema,
      channels: z
        .strictObject(channelShape)
        .prefault({})
        .describe("Channel accounts keyed by channel id. A channel needs its plugin package installed."),
    })
    .superRefine((config, ctx) => {
      const entries = config.agents.entries;
      const known = new Set(Object.keys(entries ?? {}).map((id) => id.toLowerCase()));
      if (known.size === 0) known.add("main");
      config.bindings.forEach((binding, index) => {
        if (!known.has(binding.agentId.toLowerCase())) {
          ctx.addIssue({
            code: "custom",
            path: ["bindings", index, "agentId"],
            message: `no agent "${binding.agentId}" is defined; add agents.entries.${binding.agentId} or bind to one of: ${[...known].join(", ")}`,
          });
        }
      });
    });
}

export type ConfigSchema = ReturnType<typeof buildConfigSchema>;
