import path from "node:path";

/** `<stateDir>/state/openclaw.sqlite`: workspace setup state, pairing codes, cursors, the inbox and the delivery ledger. */
export function stateDbPath(stateDir: string): string {
  return path.join(stateDir, "state", "openclaw.sqlite");
}
