import { defineKeyMoveRule, formatPath, isPlainObject, type ConfigObject, type LegacyKeyRule } from "@openclaw/plugin-sdk/config";
import { referenceBookkeepingRule } from "./reference-bookkeeping.js";
import { AGENT_ID_PATTERN } from "./schema/common.js";

function normalizeAgentId(raw: string): string {
  const lowered = raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "-")
    .replace(/^[-_]+/, "");
  return lowered.slice(0, 64);
}

/** `agents.list[]` (id + default flag) -> `agents.entries{}` keyed by id. */
const agentsListRule: LegacyKeyRule = {
  id: "core/agents-list",
  description: "Move agents.list[] to agents.entries{} keyed by agent id.",
  detect(config) {
    const agents = config.agents;
    if (isPlainObject(agents) && agents.list !== undefined) {
      return [
        {
          path: ["agents", "list"],
          message: "agents.list is retired; run `openclaw doctor --fix` to move it to agents.entries (keyed by agent id).",
        },
      ];
    }
    return [];
  },
  apply(config) {
    const agents = config.agents;
    if (!isPlainObject(agents) || agents.list === undefined) return { changes: [], problems: [] };
    const list = agents.list;
    if (!Array.isArray(list)) {
      return {
        changes: [],
        problems: [
          `agents.list has the invalid value ${JSON.stringify(list)}; expected an array of agents. Move them to agents.entries yourself.`,
        ],
      };
    }
    const problems: string[] = [];
    const planned: [string, ConfigObject][] = [];
    const existing = isPlainObject(agents.entries) ? agents.entries : {};
    const taken = new Set(Object.keys(existing).map((k) => k.toLowerCase()));
    list.forEach((item, index) => {
      if (!isPlainObject(item) || typeof item.id !== "string" || item.id.trim() === "") {
        problems.push(`agents.list[${index}] has no string id; give it one or move it to agents.entries yourself.`);
        return;
      }
      const id = AGENT_ID_PATTERN.test(item.id) ? item.id.toLowerCase() : normalizeAgentId(item.id);
      if (!AGENT_ID_PATTERN.test(id)) {
        problems.push(`agents.list[${index}].id ${JSON.stringify(item.id)} cannot be made a valid agent id; rename it.`);
        return;
      }
      if (taken.has(id)) {
        problems.push(`agents.list[${index}].id ${JSON.stringify(item.id)} duplicates agent "${id}"; rename one of them.`);
        return;
      }
      taken.add(id);
      const { id: _id, ...rest } = item;
      planned.push([id, rest]);
    });
    if (problems.length > 0) return { changes: [], problems };
    const entries: ConfigObject = { ...existing };
    const changes: string[] = [];
    planned.forEach(([id, rest], index) => {
      entries[id] = rest;
      changes.push(
        `agents.list[${index}] -> ${formatPath(["agents", "entries", id])}${rest.default === true ? " (stays the default agent)" : ""}`,
      );
    });
    agents.entries = entries;
    delete agents.list;
    if (planned.length === 0) changes.push("agents.list (empty) removed");
    return { changes, problems };
  },
};

const idleMinutesRule = defineKeyMoveRule({
  id: "core/session-idle-minutes",
  from: ["session", "idleMinutes"],
  to: ["session", "reset", "idleMinutes"],
  check: (v) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? undefined : "expected a positive whole number of minutes"),
});

/** Core's own doctor rules, run before the channels' rules. */
export const CORE_MIGRATIONS: readonly LegacyKeyRule[] = [
  referenceBookkeepingRule,
  agentsListRule,
  {
    // The legacy key meant "reset when idle": keep that meaning when no reset mode is set.
    ...idleMinutesRule,
    apply(config) {
      const session = config.session;
      const hadLegacy = isPlainObject(session) && session.idleMinutes !== undefined;
      const reset = isPlainObject(session) && isPlainObject(session.reset) ? session.reset : undefined;
      const modeWasSet = reset?.mode !== undefined;
      const outcome = idleMinutesRule.apply(config);
      const after = isPlainObject(config.session) ? config.session : undefined;
      const newReset = after && isPlainObject(after.reset) ? after.reset : undefined;
      if (hadLegacy && !modeWasSet && newReset && outcome.changes.some((c) => c.includes("->"))) {
        newReset.mode = "idle";
        outcome.changes.push('session.reset.mode: "idle" (keeps the idle reset session.idleMinutes asked for)');
      }
      return outcome;
    },
  },
];
