import type { GatewayConnection } from "../api/client.js";

/** What every page gets from the shell. */
export interface PageProps {
  conn: GatewayConnection;
  /** The query of the page's route (`#/sessions?key=...`). */
  query: URLSearchParams;
  /** The gateway's agents (from `status` at connect); the default first when it is configured so. */
  agents: { id: string; default: boolean }[];
}
