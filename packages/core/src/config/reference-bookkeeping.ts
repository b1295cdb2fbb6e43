import { isPlainObject, type LegacyKeyRule } from "@openclaw/plugin-sdk/config";

/**
 * Root keys the reference OpenClaw writes into openclaw.json for its own bookkeeping: `meta`
 * (`lastTouchedVersion`, `migrations`: which of its own config migrations ran) and `wizard`
 * (`lastRunAt`, `lastRunVersion`, ...: when its setup wizard last ran). Nothing here reads them,
 * so doctor drops them and says so.
 */
const BOOKKEEPING: readonly { key: string; what: string }[] = [
  { key: "meta", what: "the reference OpenClaw's record of the release that last wrote the file and of its own migrations" },
  { key: "wizard", what: "the reference OpenClaw's record of its last setup wizard run" },
];

function versionNote(key: string, value: unknown): string {
  if (!isPlainObject(value)) return "";
  const version = key === "meta" ? value.lastTouchedVersion : value.lastRunVersion;
  return typeof version === "string" ? `, written by ${version}` : "";
}

/** Drops the reference's `meta` and `wizard` root keys (each with a line saying what it was). */
export const referenceBookkeepingRule: LegacyKeyRule = {
  id: "core/reference-bookkeeping",
  description: "Drop the reference OpenClaw's bookkeeping keys meta and wizard; this openclaw does not use them.",
  detect(config) {
    return BOOKKEEPING.filter(({ key }) => config[key] !== undefined).map(({ key, what }) => ({
      path: [key],
      message: `${key} is ${what}; this openclaw does not use it. Run \`openclaw doctor --fix\` to drop it.`,
    }));
  },
  apply(config) {
    const changes: string[] = [];
    for (const { key, what } of BOOKKEEPING) {
      if (config[key] === undefined) continue;
      const note = versionNote(key, config[key]);
      delete config[key];
      changes.push(`${key} dropped (${what}${note}; this openclaw does not use it)`);
    }
    return { changes, problems: [] };
  },
};
