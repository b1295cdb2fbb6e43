/** Default time `stop()` gives in-flight runs and deliveries. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** Events a control client may receive besides responses. */
export const GATEWAY_EVENTS = ["agent", "channels.changed", "shutdown"] as const;

/** How long, at least, stopping accounts get to close their sessions after the drain deadline (ms). */
export const ACCOUNT_CLOSE_GRACE_MS = 2000;
