import { z } from "zod";
import { webSearchSchema } from "./web-search.js";

const toolNameList = z.array(z.string().min(1)).describe('Tool names or groups ("group:fs"); "*" wildcards allowed, case-insensitive.');

const profileSchema = z
  .enum(["minimal", "coding", "messaging", "full"])
  .describe(
    'Base tool set: "minimal" (session_status), "coding" (files, exec, web, sessions, memory, cron), "messaging" (messaging and sessions), "full" (everything; same as unset).',
  );

function checkAllowAlsoAllow(value: { allow?: unknown; alsoAllow?: unknown }, ctx: z.RefinementCtx) {
  if (value.allow !== undefined && value.alsoAllow !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["alsoAllow"],
      message: "allow and alsoAllow cannot both be set in one scope; use allow to replace the profile's list, or alsoAllow to add to it",
    });
  }
}

/** Per-agent tool policy (`agents.entries.<id>.tools`). */
export const agentToolsSchema = z
  .strictObject({
    profile: profileSchema.optional(),
    allow: toolNameList.optional().describe("Only these tools (replaces the profile's set)."),
    alsoAllow: toolNameList.optional().describe("Tools added to the profile's set."),
    deny: toolNameList.optional().describe("Tools removed; deny always wins."),
  })
  .superRefine(checkAllowAlsoAllow)
  .describe("Tool policy for this agent; applied after the global tools policy.");

/** `tools`: the global tool policy. */
export const toolsSchema = z
  .strictObject({
    profile: profileSchema.optional(),
    allow: toolNameList.optional().describe("Only these tools (replaces the profile's set)."),
    alsoAllow: toolNameList.optional().describe("Tools added to the profile's set."),
    deny: toolNameList.optional().describe("Tools removed; deny always wins."),
    exec: z
      .strictObject({
        timeoutSeconds: z.int().positive().default(1800).describe("Longest a foreground exec may run (default 1800)."),
        maxOutputChars: z
          .int()
          .positive()
          .default(200000)
          .describe("Output kept per exec call; the rest is cut with a notice (default 200000)."),
        mode: z
          .enum(["deny", "allowlist", "full"])
          .default("full")
          .describe(
            'Which commands exec runs: "full" any command (default), "allowlist" only one program from tools.exec.allowlist with plain arguments (no pipes, chaining, redirection or $), "deny" none. There are no approval prompts.',
          ),
        allowlist: z
          .array(z.string().trim().min(1))
          .default([])
          .describe(
            'Programs exec may run when mode is "allowlist": a bare name matches a program found through PATH ("git", "python3*"), a pattern with / a program given as a path ("~/bin/*"); * matches anything, case-sensitive. Arguments are not checked (default []).',
          ),
        passEnv: z
          .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "not an environment variable name (letters, digits and _)"))
          .default([])
          .describe(
            "Names of the gateway's environment variables that exec commands also get. Without them commands see only PATH, HOME, USER, LOGNAME, SHELL, LANG, LANGUAGE, LC_*, TERM, COLORTERM, NO_COLOR, TZ, TMPDIR, TMP, TEMP, the XDG base-directory variables and the skill env; everything else (the gateway token, channel and provider keys) is withheld (default []).",
          ),
        applyPatch: z
          .strictObject({
            enabled: z.boolean().default(true).describe("Offer the apply_patch tool (default true)."),
            workspaceOnly: z.boolean().default(true).describe("Patches may only touch files inside the workspace (default true)."),
            allowModels: z
              .array(z.string())
              .optional()
              .describe('Models that get apply_patch ("provider/model", wildcards); default: OpenAI models.'),
          })
          .prefault({}),
      })
      .prefault({})
      .describe("Shell execution policy."),
    web: z
      .strictObject({
        fetch: z
          .strictObject({
            allowPrivateNetwork: z
              .boolean()
              .default(false)
              .describe(
                "Let web_fetch reach loopback, private, link-local and unique-local addresses, checked after DNS resolution and on every redirect (default false).",
              ),
            maxBytes: z
              .int()
              .positive()
              .default(2_097_152)
              .describe("Largest response body web_fetch reads; the rest is cut with a notice (default 2097152, 2 MiB)."),
            maxChars: z
              .int()
              .positive()
              .default(50_000)
              .describe("Text returned by web_fetch when the call gives no maxChars, and the ceiling for one that does (default 50000)."),
            timeoutSeconds: z.number().positive().default(30).describe("Time allowed for one web_fetch, redirects included (default 30)."),
          })
          .prefault({})
          .describe("The web_fetch tool."),
        search: webSearchSchema,
      })
      .prefault({})
      .describe("Web tools."),
    browser: z
      .strictObject({
        executablePath: z
          .string()
          .trim()
          .min(1)
          .optional()
          .describe("Chromium binary the browser tool launches (default: chromium, then chromium-browser, found on PATH)."),
        headless: z.boolean().default(true).describe("Run Chromium without a window (default true); pdf needs headless."),
        allowPrivateNetwork: z
          .boolean()
          .default(false)
          .describe(
            "Let the browser open and load from loopback, private, link-local and unique-local addresses, checked after DNS resolution for the page and every request it makes (default false).",
          ),
        idleTimeoutSeconds: z
          .number()
          .positive()
          .default(300)
          .describe("Close an agent's browser after this long without a browser call (default 300)."),
        timeoutSeconds: z.number().positive().default(30).describe("Time allowed for one navigation or element action (default 30)."),
        maxSnapshotChars: z
          .int()
          .positive()
          .default(30_000)
          .describe("Longest accessibility snapshot returned; the rest is cut with a notice (default 30000)."),
      })
      .prefault({})
      .describe("The browser tool (one Chromium per agent, profile under <stateDir>/agents/<id>/browser/profile)."),
    agentToAgent: z
      .strictObject({
        enabled: z.boolean().default(false).describe("Let agents message and spawn other agents (default false)."),
        allow: z.array(z.string()).default([]).describe("Agent ids other agents may reach."),
      })
      .prefault({})
      .describe("Agent-to-agent tools (sessions_send / sessions_spawn across agents)."),
  })
  .superRefine(checkAllowAlsoAllow)
  .prefault({})
  .describe("Which tools agents may use.");
