import { randomBytes } from "node:crypto";

/** A platform-shaped id: `prefix` + 32 hex digits (om_ messages, oc_ chats, img_v3_ images...). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(16).toString("hex")}`;
}
