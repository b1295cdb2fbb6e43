import { z } from "zod";

/** Account ids: letters, digits, `-` and `_`, starting with a letter or digit (at most 64). */
export const accountIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/i, "account ids use letters, digits, '-' and '_' (at most 64), starting with a letter or digit");

/** Who may DM the bot. */
export const dmPolicySchema = z
  .enum(["pairing", "allowlist", "open", "disabled"])
  .describe(
    'Who may message the bot directly (default "pairing"): "pairing" gives unknown senders a one-time code to approve with `openclaw pairing approve`; "allowlist" only allowFrom; "open" anyone (requires "*" in allowFrom); "disabled" ignores DMs.',
  );

/** Which groups the bot answers in. */
export const groupPolicySchema = z
  .enum(["allowlist", "open", "disabled"])
  .describe(
    'Which groups the bot answers in (default "allowlist", fail-closed): "allowlist" only groups listed in `groups` (and senders in groupAllowFrom when set); "open" any group; "disabled" none.',
  );

/** A sender id written as a number: only a whole number can ever equal a platform's id. */
const numericSenderIdSchema = z.number().refine(Number.isSafeInteger, {
  error: (issue) => `${String(issue.input)} can never match a sender: an id written as a number must be a whole number`,
  params: { fix: "write the sender's exact id (a whole number, or a string)." },
});

/**
 * Sender ids; whole numbers are accepted for platforms with numeric ids (`12.5` is refused);
 * `"*"` means anyone. Which ids a platform can have is checked by its `ids.checkSender` rule.
 */
export const senderListSchema = z.array(z.union([z.string().min(1), numericSenderIdSchema]));

/** The longest inbound message (in characters, UTF-16 code units) handed to the agent unless `maxInboundChars` says otherwise. */
export const DEFAULT_MAX_INBOUND_CHARS = 16_000;

/** Settings of one group (or `"*"`, the defaults for every group). */
export const groupSettingsShape = {
  enabled: z.boolean().optional().describe("Set false to ignore this group (default true)."),
  requireMention: z.boolean().optional().describe("Only answer when the bot is mentioned or replied to (default true)."),
  allowFrom: senderListSchema.optional().describe("Senders allowed in this group (default: groupAllowFrom)."),
  systemPrompt: z
    .string()
    .optional()
    .describe("Extra instructions added to the system prompt for messages from this group (a topic's own systemPrompt wins)."),
};

/** The access and delivery keys every channel has, at its root and in each account. */
export function channelCommonShape(options: { textChunkLimit: number; groupSettings?: z.ZodType }) {
  const group = options.groupSettings ?? z.strictObject(groupSettingsShape);
  return {
    enabled: z.boolean().optional().describe("Set false to keep the config but not start this channel/account (default true)."),
    name: z.string().optional().describe("A display name for this account, shown by `openclaw channels status`."),
    dmPolicy: dmPolicySchema.optional(),
    allowFrom: senderListSchema.optional().describe('Senders allowed to DM the bot; "*" allows anyone.'),
    groupPolicy: groupPolicySchema.optional(),
    groupAllowFrom: senderListSchema
      .optional()
      .describe("Senders allowed to trigger the bot in groups (default: allowFrom; never the pairing store)."),
    groups: z
      .record(z.string().min(1), group)
      .optional()
      .describe('Per-group settings keyed by the platform\'s group id; "*" sets defaults for every group.'),
    textChunkLimit: z
      .int()
      .positive()
      .optional()
      .describe(`Longest message sent before the reply is split (default ${options.textChunkLimit}).`),
    maxInboundChars: z
      .int()
      .positive()
      .optional()
      .describe(
        `Longest incoming message handed to the agent, in characters (default ${DEFAULT_MAX_INBOUND_CHARS}); a longer one is not answered by the agent: the sender is told it was too long.`,
      ),
  };
}

/** An issue found by a cross-field check, relative to the object checked. */
interface AccessIssue {
  path: (string | number)[];
  message: string;
}

function checkAccess(entry: Record<string, unknown>, inherited: Record<string, unknown> | undefined): AccessIssue[] {
  const issues: AccessIssue[] = [];
  const dmPolicy = entry.dmPolicy ?? inherited?.dmPolicy;
  const allowFrom = (entry.allowFrom ?? inherited?.allowFrom) as unknown[] | undefined;
  if (entry.dmPolicy !== undefined || entry.allowFrom !== undefined) {
    if (dmPolicy === "open" && !(allowFrom ?? []).includes("*")) {
      issues.push({
        path: ["dmPolicy"],
        message:
          'dmPolicy "open" lets anyone talk to the agent and therefore requires allowFrom to contain "*"; add allowFrom: ["*"] or use "pairing"',
      });
    }
    if (dmPolicy === "allowlist" && (allowFrom ?? []).length === 0) {
      issues.push({
        path: ["dmPolicy"],
        message:
          'dmPolicy "allowlist" with an empty allowFrom would ignore everyone; list the allowed sender ids in allowFrom or use "pairing"',
      });
    }
  }
  return issues;
}

/**
 * Builds a channel's config schema: the common keys, the channel's own keys, its `streaming`
 * object, and `accounts.<id>` overrides of all of them (an account inherits every root key it
 * does not set). Unknown keys are rejected everywhere.
 *
 * @param shared keys valid at the root and in each account (credentials, delivery options).
 * @param rootOnly keys valid only at the channel root.
 */
export function channelConfigSchema<S extends z.ZodType, A extends z.ZodRawShape, R extends z.ZodRawShape = Record<never, never>>(options: {
  streaming: S;
  shared: A;
  rootOnly?: R;
  textChunkLimit: number;
  groupSettings?: z.ZodType;
  description: string;
}) {
  const common = channelCommonShape({
    textChunkLimit: options.textChunkLimit,
    ...(options.groupSettings ? { groupSettings: options.groupSettings } : {}),
  });
  const accountShape = { ...common, ...options.shared, streaming: options.streaming.optional() };
  const account = z.strictObject(accountShape).describe("Overrides for one account; unset keys inherit the channel's root value.");
  return z
    .strictObject({
      ...accountShape,
      ...(options.rootOnly ?? ({} as R)),
      defaultAccount: accountIdSchema.optional().describe('The account used when none is named (default "default").'),
      accounts: z.record(accountIdSchema, account).optional().describe("Extra accounts of this channel, keyed by account id."),
    })
    .superRefine((value, ctx) => {
      const root = value as Record<string, unknown>;
      for (const issue of checkAccess(root, undefined)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      const accounts = (root.accounts ?? {}) as Record<string, Record<string, unknown>>;
      for (const [id, acc] of Object.entries(accounts)) {
        for (const issue of checkAccess(acc, root)) {
          ctx.addIssue({ code: "custom", path: ["accounts", id, ...issue.path], message: issue.message });
        }
      }
    })
    .describe(options.description);
}
