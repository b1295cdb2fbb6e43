import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { sharedSessionWarnings } from "./session-warnings.js";

/**
 * `gateway.auth.mode: "none"` (accepted on a loopback bind only, kept for configs written for the
 * reference): every program and every user account on this machine can drive the agent and its
 * tools. Browser pages are refused outright in that mode, so the coming Control UI needs a token.
 */
export function gatewayAuthWarnings(config: unknown): string[] {
  if (!isPlainObject(config) || !isPlainObject(config.gateway) || !isPlainObject(config.gateway.auth)) return [];
  if (config.gateway.auth.mode !== "none") return [];
  return [
    'gateway.auth.mode is "none": every program and every user account on this machine can drive the agent and its tools through the control API, ' +
      "and browser pages (the Control UI included) are refused. Remove gateway.auth.mode (a token is then generated and kept in <stateDir>/gateway.token, " +
      "which the openclaw CLI reads by itself) unless this machine has no other users and runs nothing you do not trust.",
  ];
}

/**
 * The warnings about settings that expose the agent or mix people: shared sessions
 * (`sharedSessionWarnings`) and a gateway without auth. Printed by `openclaw config validate`,
 * `openclaw doctor` and at gateway start.
 */
export function securityWarnings(config: unknown): string[] {
  return [...sharedSessionWarnings(config), ...gatewayAuthWarnings(config)];
}
