// The SQLite databases of a state folder: the shared state database and one session database
// per agent. Integrity checks, backups and doctor walk this list.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
// The two path leaves, not the state and sessions indexes: their stores import this folder.
import { normalizeAgentId } from "../agents/index.js";
import { agentStorePath } from "../sessions/paths.js";
import { stateDbPath } from "../state/paths.js";

/** One database file of the state folder. */
export interface DatabaseFile {
  /** The file name stem its backups carry: `state`, or `agent-<agentId>`. */
  name: string;
  file: string;
  /** For people: "The state database", "The session database of agent main". */
  what: string;
  /** What an empty replacement loses. */
  loses: string;
}

/** `<stateDir>/backups`: where the rolling backups of every database are kept. */
export function backupsDir(stateDir: string): string {
  return path.join(stateDir, "backups");
}

/** The shared state database (`<stateDir>/state/openclaw.sqlite`). */
export function stateDatabase(stateDir: string): DatabaseFile {
  return {
    name: "state",
    file: stateDbPath(stateDir),
    what: "The state database",
    loses: "pairing approvals, channel offsets, the inbox of unanswered messages and the delivery records",
  };
}

/** One agent's session database (`<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite`). */
export function sessionDatabase(stateDir: string, agentId: string): DatabaseFile {
  const id = normalizeAgentId(agentId);
  return {
    name: `agent-${id}`,
    file: agentStorePath(stateDir, id),
    what: `The session database of agent ${id}`,
    loses: `agent ${id}'s sessions and transcripts`,
  };
}

/**
 * Every database file that exists in the state folder: the state database, then each agent's
 * session database (agent folders without one are skipped), in agent-id order.
 */
export function listDatabaseFiles(stateDir: string): DatabaseFile[] {
  const found: DatabaseFile[] = [];
  const state = stateDatabase(stateDir);
  if (existsSync(state.file)) found.push(state);
  let agentDirs: string[] = [];
  try {
    agentDirs = readdirSync(path.join(stateDir, "agents"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    // no agents folder yet
  }
  for (const dir of agentDirs) {
    const db = sessionDatabase(stateDir, dir);
    if (normalizeAgentId(dir) === dir && existsSync(db.file)) found.push(db);
  }
  return found;
}
