// The control API's config editing: the file's text (secrets redacted), validation, and the same
// validated atomic write as `openclaw config set`; the gateway's file watcher then reloads it.
import { z } from "zod";
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import { ConfigFileError, createConfigRegistry, parseJson5Text, readConfigSource, type OpenClawPaths } from "../config/index.js";
import {
  ConfigChangeRefused,
  changeConfigFile,
  configTextHash,
  fileRedactor,
  restoreRedacted,
  validateRawConfig,
  type RegistryResolver,
} from "../config-edit/index.js";
import type { SecretScrubber } from "../redaction/index.js";
import type { MethodHandler } from "./control-server.js";
import { clientError, parseParams } from "./method-params.js";
import { ControlError } from "./protocol.js";

export interface ConfigMethodDeps {
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  /** The channel definitions of the plugins the gateway loaded (what its reload validates with). */
  channels: readonly ChannelConfigDefinition[];
  scrubber: SecretScrubber;
}

const rawParams = z.object({ raw: z.string() });
const setParams = z.object({ raw: z.string(), baseHash: z.string() });

const issuesOf = (problems: readonly { path?: string | undefined; message: string }[]) =>
  problems.map((p) => ({ path: p.path ?? "", message: p.message }));

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** `config.validate`, `config.raw`, `config.set`. */
export function configMethods(deps: ConfigMethodDeps): Record<string, MethodHandler> {
  const file = deps.paths.configPath;
  const resolveRegistry: RegistryResolver = async () => ({ registry: createConfigRegistry(deps.channels), problems: [], warnings: [] });
  const options = { file, env: deps.env, resolveRegistry };

  /** The file now: its parsed content, its text redacted, and the redactor (which knows the file's secrets). */
  async function current() {
    const source = await readConfigSource(file);
    const redact = fileRedactor(source.raw, []);
    const scrub = (text: string) => deps.scrubber.text(redact(text));
    return { source, scrub, hash: configTextHash(source.text) };
  }

  /** Parses an edited text and puts the stored secrets back where it kept their placeholders. */
  function edited(
    text: string,
    stored: unknown,
    scrub: (t: string) => string,
  ): { ok: true; value: unknown } | { ok: false; issues: ReturnType<typeof issuesOf> } {
    const parsed = parseJson5Text(text, file);
    if (!parsed.ok) return { ok: false, issues: issuesOf([parsed.problem]) };
    if (!isObject(parsed.value)) return { ok: false, issues: [{ path: "", message: "the config must be an object ({ … })" }] };
    return { ok: true, value: restoreRedacted(parsed.value, stored, scrub) };
  }

  return {
    "config.raw": async () => {
      try {
        const { source, scrub, hash } = await current();
        return { path: file, exists: source.exists, raw: source.text === undefined ? "{}\n" : scrub(source.text), hash };
      } catch (err) {
        throw clientError(err);
      }
    },

    "config.validate": async (params) => {
      const { raw } = parseParams(rawParams, params, "config.validate");
      try {
        const { source, scrub } = await current();
        const next = edited(raw, source.raw, scrub);
        if (!next.ok) return { ok: false, issues: next.issues, warnings: [] };
        const checked = await validateRawConfig(next.value, options);
        const issues = checked.result.ok ? [] : issuesOf(checked.result.problems);
        return { ok: issues.length === 0, issues, warnings: checked.warnings.map((w) => deps.scrubber.text(w)) };
      } catch (err) {
        // An `$include` or `${VAR}` that does not resolve is a finding, not a failed request.
        if (err instanceof ConfigFileError) return { ok: false, issues: issuesOf(err.problems), warnings: [] };
        throw clientError(err);
      }
    },

    "config.set": async (params) => {
      const { raw, baseHash } = parseParams(setParams, params, "config.set");
      try {
        const result = await changeConfigFile(
          "config.set",
          (source) => {
            if (configTextHash(source.text) !== baseHash) {
              throw new ControlError(
                "conflict",
                `${file} changed since it was read (another edit, \`openclaw config set\` or doctor); read it again with config.raw and redo the change`,
              );
            }
            const scrub = (t: string) => deps.scrubber.text(fileRedactor(source.raw, [])(t));
            const next = edited(raw, source.raw, scrub);
            if (!next.ok)
              throw new ControlError("invalid_params", `config.set: ${next.issues.map((i) => i.message).join("; ")}`, {
                issues: next.issues,
              });
            return next.value as Record<string, unknown>;
          },
          options,
        );
        const after = await readConfigSource(file);
        return {
          ok: true,
          hash: configTextHash(after.text),
          backupPath: result.backupPath ?? null,
          remaining: issuesOf(result.remaining),
        };
      } catch (err) {
        if (err instanceof ConfigChangeRefused) throw new ControlError("invalid_params", err.message, { issues: issuesOf(err.problems) });
        throw clientError(err);
      }
    },
  };
}
