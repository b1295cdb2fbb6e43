export type { ConfigReloadReport, GatewayToolHost } from "./host.js";
export { isOwnerMainSession } from "./owner.js";
export { applyMergePatch, applyPathChanges, type PathChange } from "./patch.js";
export { createGatewayTool, describeReload, gatewayToolsFor } from "./tool.js";
