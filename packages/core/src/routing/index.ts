// Public surface of the routing concern: which agent and session an inbound message goes to
// (bindings in tier order, session scopes), outbound targets, and the shared `message` tool.
// Other folders import from here only.
export { resolveRoute, messagePeers, type ResolvedRoute } from "./resolve-route.js";
export {
  readBindings,
  matchBinding,
  normalizePeerId,
  type IdRulesLookup,
  type RouteBinding,
  type RouteMatch,
  type MessagePeers,
} from "./bindings.js";
export {
  parseMessageTarget,
  inferChatKind,
  type MessageTarget,
  type TargetResolution,
  type ParseTargetOptions,
} from "./target.js";
export { createMessageTool, type MessageToolOptions, type MessageSendTarget } from "./message-tool.js";
