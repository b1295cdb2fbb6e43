import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, readSchemaVersion, type Migration } from "./schema.js";

describe("migrate", () => {
  it("runs every step forward once and records the version", () => {
    const db = new Database(":memory:");
    const extra: Migration = {
      version: MIGRATIONS.length + 1,
      description: "test step",
      up: (d) => d.exec("CREATE TABLE extra (x INTEGER) STRICT"),
    };
    const all = [...MIGRATIONS, extra];
    expect(db.transaction(() => migrate(db, { agentId: "main", now: 1 }))()).toEqual({ from: 0, to: MIGRATIONS.length });
    expect(db.transaction(() => migrate(db, { agentId: "main", now: 2, migrations: all }))()).toEqual({
      from: MIGRATIONS.length,
      to: MIGRATIONS.length + 1,
    });
    expect(db.transaction(() => migrate(db, { agentId: "main", now: 3, migrations: all }))()).toEqual({
      from: MIGRATIONS.length + 1,
      to: MIGRATIONS.length + 1,
    });
    expect(readSchemaVersion(db)).toBe(MIGRATIONS.length + 1);
    expect(db.prepare("SELECT schema_version, created_at, updated_at FROM schema_meta").get()).toEqual({
      schema_version: MIGRATIONS.length + 1,
      created_at: 1,
      updated_at: 2,
    });
    db.close();
  });

  it("rolls a failed step back completely", () => {
    const db = new Database(":memory:");
    const broken: Migration = { version: MIGRATIONS.length + 1, description: "broken", up: (d) => d.exec("CREATE TABLE oops (; ") };
    expect(() => db.transaction(() => migrate(db, { agentId: "main", now: 1, migrations: [...MIGRATIONS, broken] }))()).toThrow();
    expect(readSchemaVersion(db)).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master").get()).toEqual({ n: 0 });
    db.close();
  });
});
