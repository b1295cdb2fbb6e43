/**
 * The linked device's login state on disk, in the account's credentials folder, in the files
 * Baileys' `useMultiFileAuthState` reads and writes (`creds.json`, `<type>-<id>.json` signal keys;
 * a folder made by either works with the other). Better than the stock one: every file is mode
 * 0600, every write goes through one serial queue (a write never interleaves with another or with
 * a read of the same folder), and `creds.json` is copied to `creds.json.bak` before each save, so
 * a `creds.json` cut short by a crash is restored from the backup instead of forcing a re-link.
 */
import { chmod, mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AuthenticationCreds, AuthenticationState, SignalDataTypeMap } from "baileys";
import { BufferJSON, initAuthCreds, WAProto } from "./baileys.js";

/** The creds file and its backup. */
export const CREDS_FILE = "creds.json";
export const CREDS_BACKUP_FILE = "creds.json.bak";

/** Mode of every file written (owner read/write only). */
const FILE_MODE = 0o600;

/** `useMultiFileAuthState`'s file names: `/` -> `__`, `:` -> `-`. */
const fileNameOf = (name: string): string => name.replace(/\//g, "__").replace(/:/g, "-");

/** Runs tasks one after another; a failed task does not stop the ones after it. */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  /** Runs `task` after every task queued before it; settles as `task` does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}

/** What the folder held when it was loaded. */
export type CredsSource = "creds" | "backup" | "new";

/** A loaded auth state: Baileys' `AuthenticationState` plus the saves and housekeeping around it. */
export interface FileAuthState {
  /** Pass as `auth` to the socket. */
  state: AuthenticationState;
  /** Where the creds came from: the file, its backup (the file was corrupt or missing), or new. */
  source: CredsSource;
  /** Queues a save of the creds (call on every `creds.update`). */
  saveCreds(): Promise<void>;
  /** Resolves once every queued write is on disk. */
  flush(): Promise<void>;
  /** Writes one extra JSON file of the folder (e.g. a LID mapping), through the same queue. */
  writeJson(name: string, value: unknown): Promise<void>;
  /** Reads one JSON file of the folder, or undefined. */
  readJson<T>(name: string): Promise<T | undefined>;
}

async function readJsonFile(file: string): Promise<unknown> {
  const text = await readFile(file, "utf8");
  return JSON.parse(text, BufferJSON.reviver);
}

/**
 * True when the creds are of a linked device (the phone accepted it: `me` and the signed device
 * identity `account` are set). A folder with a requested but never entered pairing code is not.
 */
export function isLinked(creds: Partial<AuthenticationCreds> | undefined): boolean {
  return creds?.me?.id !== undefined && creds.account != null;
}

/**
 * Reads the creds of `dir` without opening anything: the file, else its backup; undefined when
 * neither holds valid JSON.
 */
export async function readSavedCreds(dir: string): Promise<{ creds: AuthenticationCreds; source: "creds" | "backup" } | undefined> {
  try {
    return { creds: (await readJsonFile(path.join(dir, CREDS_FILE))) as AuthenticationCreds, source: "creds" };
  } catch {
    try {
      return { creds: (await readJsonFile(path.join(dir, CREDS_BACKUP_FILE))) as AuthenticationCreds, source: "backup" };
    } catch {
      return undefined;
    }
  }
}

/**
 * Loads (or starts) the auth state of `dir`, created 0700 when missing. A corrupt or missing
 * `creds.json` is restored from `creds.json.bak` (and written back at once).
 */
export async function useFileAuthState(dir: string): Promise<FileAuthState> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const queue = new SerialQueue();

  const writeFileSafely = async (name: string, text: string): Promise<void> => {
    const target = path.join(dir, name);
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, text, { mode: FILE_MODE });
    await chmod(temp, FILE_MODE);
    await rename(temp, target);
  };
  const write = (name: string, value: unknown): Promise<void> =>
    queue.run(() => writeFileSafely(fileNameOf(name), JSON.stringify(value, BufferJSON.replacer)));
  const read = (name: string): Promise<unknown> =>
    queue.run(async () => {
      try {
        return await readJsonFile(path.join(dir, fileNameOf(name)));
      } catch {
        return undefined;
      }
    });
  const remove = (name: string): Promise<void> => queue.run(() => rm(path.join(dir, fileNameOf(name)), { force: true }));

  const saved = await readSavedCreds(dir);
  const creds: AuthenticationCreds = saved?.creds ?? initAuthCreds();
  const source: CredsSource = saved?.source ?? "new";
  if (source === "backup") await write(CREDS_FILE, creds);

  const saveCreds = (): Promise<void> =>
    queue.run(async () => {
      // Keep the last good creds.json as the backup before replacing it.
      try {
        const current = await readFile(path.join(dir, CREDS_FILE), "utf8");
        JSON.parse(current);
        await writeFileSafely(CREDS_BACKUP_FILE, current);
      } catch {
        // No valid creds.json yet: nothing to back up.
      }
      await writeFileSafely(CREDS_FILE, JSON.stringify(creds, BufferJSON.replacer));
    });

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const data: { [id: string]: SignalDataTypeMap[T] } = {};
        await Promise.all(
          ids.map(async (id) => {
            let value = (await read(`${type}-${id}.json`)) as SignalDataTypeMap[T] | undefined;
            if (type === "app-state-sync-key" && value)
              value = WAProto.Message.AppStateSyncKeyData.fromObject(value) as unknown as SignalDataTypeMap[T];
            if (value !== undefined) data[id] = value;
          }),
        );
        return data;
      },
      async set(data) {
        const tasks: Promise<void>[] = [];
        for (const category of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
          for (const [id, value] of Object.entries(data[category] ?? {})) {
            const file = `${category}-${id}.json`;
            tasks.push(value ? write(file, value) : remove(file));
          }
        }
        await Promise.all(tasks);
      },
    },
  };

  return {
    state,
    source,
    saveCreds,
    flush: () => queue.idle(),
    writeJson: (name, value) => write(name, value),
    readJson: async <T>(name: string) => (await read(name)) as T | undefined,
  };
}

/** Removes every file of the auth state in `dir` (logout); the folder itself stays. */
export async function removeAuthState(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.filter((n) => n.endsWith(".json") || n.endsWith(".bak") || n.endsWith(".tmp")).map((n) => rm(path.join(dir, n), { force: true })),
  );
}
