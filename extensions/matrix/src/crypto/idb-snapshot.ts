/**
 * Dump and restore the whole contents of an IndexedDB factory (fake-indexeddb in Node) as plain
 * structured-clone data, so the Rust crypto store can outlive the process. Only the standard
 * IndexedDB API is used; the types below are the slice of it this module needs (the package
 * compiles without the DOM lib).
 */

type Key = unknown;

interface IdbRequest<T> {
  result: T;
  error: unknown;
  onsuccess: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  transaction: IdbTransaction | null;
  onupgradeneeded: ((event: unknown) => void) | null;
  onblocked: ((event: unknown) => void) | null;
}
interface IdbIndex {
  name: string;
  keyPath: string | string[];
  unique: boolean;
  multiEntry: boolean;
}
interface IdbObjectStore {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexNames: ArrayLike<string>;
  index(name: string): IdbIndex;
  getAll(): IdbRequest<unknown[]>;
  getAllKeys(): IdbRequest<Key[]>;
  put(value: unknown, key?: Key): IdbRequest<Key>;
  createIndex(name: string, keyPath: string | string[], options: { unique: boolean; multiEntry: boolean }): IdbIndex;
}
interface IdbTransaction {
  objectStore(name: string): IdbObjectStore;
  oncomplete: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onabort: ((event: unknown) => void) | null;
  error: unknown;
}
interface IdbDatabase {
  name: string;
  version: number;
  objectStoreNames: ArrayLike<string>;
  transaction(stores: string[], mode: "readonly" | "readwrite"): IdbTransaction;
  createObjectStore(name: string, options: { keyPath: string | string[] | null; autoIncrement: boolean }): IdbObjectStore;
  close(): void;
}
/** The part of `IDBFactory` the snapshot needs; fake-indexeddb's `IDBFactory` satisfies it. */
export interface IdbFactoryLike {
  open(name: string, version?: number): IdbOpenRequest;
  databases(): Promise<Array<{ name?: string; version?: number }>>;
}

interface StoreSnapshot {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: Array<{ name: string; keyPath: string | string[]; unique: boolean; multiEntry: boolean }>;
  keys: Key[];
  values: unknown[];
}
interface DatabaseSnapshot {
  name: string;
  version: number;
  stores: StoreSnapshot[];
}
/** Every database of one factory; plain structured-clone data (`v8.serialize` can write it). */
export interface FactorySnapshot {
  format: 1;
  databases: DatabaseSnapshot[];
}

function settle<T>(request: IdbRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction: IdbTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error("IndexedDB transaction aborted"));
  });
}

async function dumpDatabase(factory: IdbFactoryLike, name: string): Promise<DatabaseSnapshot> {
  const db = await settle(factory.open(name));
  try {
    const storeNames = Array.from(db.objectStoreNames);
    const stores: StoreSnapshot[] = [];
    if (storeNames.length > 0) {
      // One read-only transaction over every store: a consistent view of this database, ordered
      // after any read-write transaction the crypto store has already started.
      const tx = db.transaction(storeNames, "readonly");
      for (const storeName of storeNames) {
        const store = tx.objectStore(storeName);
        const indexes = Array.from(store.indexNames, (indexName) => {
          const index = store.index(indexName);
          return {
            name: index.name,
            keyPath: index.keyPath,
            unique: index.unique,
            multiEntry: index.multiEntry,
          };
        });
        const [keys, values] = await Promise.all([settle(store.getAllKeys()), settle(store.getAll())]);
        stores.push({
          name: storeName,
          keyPath: store.keyPath,
          autoIncrement: store.autoIncrement,
          indexes,
          keys,
          values,
        });
      }
      await finished(tx);
    }
    return { name, version: db.version, stores };
  } finally {
    db.close();
  }
}

/** Reads every database of `factory`. Safe while other connections are open. */
export async function dumpFactory(factory: IdbFactoryLike): Promise<FactorySnapshot> {
  const listed = await factory.databases();
  const names = listed.map((entry) => entry.name).filter((name): name is string => !!name);
  names.sort();
  const databases: DatabaseSnapshot[] = [];
  for (const name of names) databases.push(await dumpDatabase(factory, name));
  return { format: 1, databases };
}

async function restoreDatabase(factory: IdbFactoryLike, snapshot: DatabaseSnapshot): Promise<void> {
  const request = factory.open(snapshot.name, snapshot.version);
  let upgraded = false;
  request.onupgradeneeded = () => {
    upgraded = true;
    const db = request.result;
    for (const store of snapshot.stores) {
      const created = db.createObjectStore(store.name, {
        keyPath: store.keyPath,
        autoIncrement: store.autoIncrement,
      });
      for (const index of store.indexes) {
        created.createIndex(index.name, index.keyPath, {
          unique: index.unique,
          multiEntry: index.multiEntry,
        });
      }
      store.values.forEach((value, i) => {
        if (store.keyPath === null) created.put(value, store.keys[i]);
        else created.put(value);
      });
    }
  };
  const db = await settle(request);
  db.close();
  if (!upgraded) {
    throw new Error(`IndexedDB database ${snapshot.name} already existed; restore needs an empty factory`);
  }
}

/** Recreates the databases of `snapshot` (schema, indexes, records) in an empty `factory`. */
export async function restoreFactory(factory: IdbFactoryLike, snapshot: FactorySnapshot): Promise<void> {
  if (snapshot.format !== 1) throw new Error(`unknown crypto store snapshot format ${String(snapshot.format)}`);
  for (const database of snapshot.databases) await restoreDatabase(factory, database);
}
