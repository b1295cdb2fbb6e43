// Agent identity: ids, the default agent, and agent entries. No other concern lives here.
export { DEFAULT_AGENT_ID, isValidAgentId, normalizeAgentId, parseAgentId } from "./ids.js";
export { resolveDefaultAgentId, listAgentIds, findAgentEntry, resolveAgentId } from "./registry.js";
