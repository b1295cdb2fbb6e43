// The types of lark-sdk.js: the two SDK classes as the channel uses them (lark.ts).
import type { LarkEventDispatcher, LarkWSClient } from "./lark.js";

export const WSClient: new (options: Record<string, unknown>) => LarkWSClient;
export const EventDispatcher: new (options: Record<string, unknown>) => LarkEventDispatcher;
