// The channels runtime: from an inbound message to a delivered reply.
export { createInboundPipeline } from "./pipeline.js";
export { planDelivery, type DeliveryPlan, type PlanInput } from "./plan.js";
export { SqliteDeliveryLedger, type LedgerEntry } from "./ledger.js";
export { createDeliveryStrategy, type DeliveryStrategy, type DeliveryStrategyOptions } from "@openclaw/delivery";
