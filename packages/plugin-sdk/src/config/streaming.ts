import { z } from "zod";

/**
 * Config fragments for the nested `channels.<id>.streaming` object. Channels compose their
 * `streaming` schema from these so that every channel spells the same knob the same way.
 * Defaults are documented here and applied by the delivery planner, not by the schema, because
 * an account's value must be told apart from an inherited one.
 */

/** How outgoing text is split: `length` fills each message, `newline` flushes at paragraph breaks. */
export const chunkModeSchema = z
  .enum(["length", "newline"])
  .describe(
    'How long replies are split: "length" (default) fills each message up to textChunkLimit; "newline" also breaks at blank lines (paragraphs).',
  );

/** Merging of small streamed blocks before they are sent. */
export const blockCoalesceSchema = z
  .strictObject({
    minChars: z
      .int()
      .positive()
      .optional()
      .describe("Hold blocks until at least this many characters are pending (default: agents.defaults.blockStreamingChunk.minChars)."),
    maxChars: z
      .int()
      .positive()
      .optional()
      .describe(
        "Never merge past this many characters (default: agents.defaults.blockStreamingChunk.maxChars, 1200; at most the channel's textChunkLimit).",
      ),
    idleMs: z.int().min(0).optional().describe("Send what is pending after this many milliseconds without new text (default 1000)."),
  })
  .describe("Coalescing of streamed blocks: merges small blocks so a chat is not spammed with one-liners.");

/** `streaming.block`: block replies (each completed block is sent as its own message). */
export const streamingBlockSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe(
        "Send each completed block of the reply as its own message while the model is still writing. Unset: the channel's default (see the streaming guide).",
      ),
    coalesce: blockCoalesceSchema
      .optional()
      .describe("Replaces agents.defaults.blockStreamingCoalesce as a whole for this channel/account."),
  })
  .describe("Block replies: completed blocks leave as they finish instead of one final message.");

/** Soft chunking of a rotating preview (`mode: "block"`). */
export const previewChunkSchema = z
  .strictObject({
    minChars: z
      .int()
      .positive()
      .optional()
      .describe("The first preview message waits for this many characters (default 30 in partial mode, 200 in block mode)."),
    maxChars: z
      .int()
      .positive()
      .optional()
      .describe("Largest preview chunk before it rotates to a new message (default 800, clamped to textChunkLimit)."),
    breakPreference: z
      .enum(["paragraph", "newline", "sentence"])
      .optional()
      .describe(
        "Accepted for compatibility with older configs: a rotating preview always breaks at the best point it finds (paragraph, then newline, sentence, whitespace).",
      ),
  })
  .describe("Chunk bounds of a rotating preview.");

/** `streaming.preview`: options of the live preview message. */
export const previewOptionsSchema = z
  .strictObject({
    chunk: previewChunkSchema.optional(),
    toolProgress: z
      .boolean()
      .optional()
      .describe(
        'While tools run, show them ("⏳ exec…") under the preview text; the line goes away when the reply continues (default true).',
      ),
  })
  .describe("Live preview options.");

/** `streaming.progress`: the status draft shown in `mode: "progress"`. */
export const progressOptionsSchema = z
  .strictObject({
    label: z
      .union([z.string(), z.literal(false)])
      .optional()
      .describe('Heading of the status draft (default "Working…"; false hides it).'),
    labels: z.array(z.string()).optional().describe("Rotating headings used instead of `label`."),
    maxLines: z.int().positive().optional().describe("Most recent activity lines kept in the draft (default 8)."),
    maxLineChars: z.int().positive().optional().describe("Longest activity line before it is cut (default 120)."),
    toolProgress: z.boolean().optional().describe("List tool calls in the draft (default true)."),
  })
  .describe('Progress draft options (mode "progress").');

/** The preview modes every preview-capable channel understands. */
export const PREVIEW_MODES = ["off", "partial", "block", "progress"] as const;
/** One of `PREVIEW_MODES`. */
export type PreviewMode = (typeof PREVIEW_MODES)[number];

const MODE_HELP: Record<string, string> = {
  off: "no live preview; the reply is sent when ready (or as blocks when block replies are on)",
  partial: "one message that is edited in place as the reply grows, finalized in place",
  block: "a preview that rotates to a new message at preview.chunk.maxChars",
  progress: "a status draft listing tool activity, replaced by the final reply",
  quiet: "like partial, but the preview is not announced (no notification) until it is final",
};

/**
 * The `streaming` object of a channel that can show live previews (it can edit messages).
 * @param modes the preview modes this channel accepts (e.g. matrix adds `"quiet"`).
 * @param defaultMode documented default when `streaming.mode` is unset.
 * @param extra extra keys the channel adds (strict: anything else is rejected).
 */
export function previewStreamingSchema<
  const M extends readonly [string, ...string[]],
  E extends z.ZodRawShape = Record<never, never>,
>(options: { modes: M; defaultMode: M[number]; extra?: E; previewChunk?: boolean }) {
  const modeDocs = options.modes.map((m) => `"${m}": ${MODE_HELP[m] ?? m}`).join("; ");
  const preview = options.previewChunk === false ? previewOptionsSchema.omit({ chunk: true }) : previewOptionsSchema;
  return z
    .strictObject({
      mode: z.enum(options.modes).optional().describe(`Live preview mode (default "${options.defaultMode}"). ${modeDocs}.`),
      chunkMode: chunkModeSchema.optional(),
      preview: preview.optional(),
      progress: progressOptionsSchema.optional(),
      block: streamingBlockSchema.optional(),
      ...(options.extra ?? ({} as E)),
    })
    .describe("How replies are streamed to this channel (nested form; the flat keys are retired).");
}

/** The `streaming` object of a channel that cannot edit messages: no preview mode. */
export function deliveryOnlyStreamingSchema() {
  return z
    .strictObject({
      chunkMode: chunkModeSchema.optional(),
      block: streamingBlockSchema.optional(),
    })
    .describe("How replies are delivered to this channel (it cannot edit messages, so there is no preview mode).");
}
