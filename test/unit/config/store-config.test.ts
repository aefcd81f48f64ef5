import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/schema.js";
import { databaseSpec } from "../../../src/store/task-stores.js";

describe("store config", () => {
  it("defaults to SQLite in .claude/claude-a2a.db with 30 days of retention", () => {
    expect(configSchema.parse({}).store).toEqual({
      type: "sqlite",
      path: ".claude/claude-a2a.db",
      retainDays: 30,
    });
    expect(configSchema.parse({ store: { type: "sqlite" } }).store).toEqual({
      type: "sqlite",
      path: ".claude/claude-a2a.db",
      retainDays: 30,
    });
  });

  it("takes postgres by URL and memory", () => {
    expect(
      configSchema.parse({ store: { type: "postgres", url: "postgres://u:p@db:5432/a2a" } }).store,
    ).toEqual({ type: "postgres", url: "postgres://u:p@db:5432/a2a", retainDays: 30 });
    expect(configSchema.parse({ store: { type: "memory" } }).store).toEqual({ type: "memory" });
  });

  it("refuses an unknown type, a non-postgres URL and negative retention", () => {
    expect(configSchema.safeParse({ store: { type: "redis" } }).success).toBe(false);
    expect(
      configSchema.safeParse({ store: { type: "postgres", url: "mysql://x/y" } }).success,
    ).toBe(false);
    expect(configSchema.safeParse({ store: { type: "sqlite", retainDays: -1 } }).success).toBe(
      false,
    );
    expect(configSchema.safeParse({ store: { type: "memory", path: "x" } }).success).toBe(false);
  });

  it("resolves a relative SQLite path against the workspace", () => {
    expect(databaseSpec({ type: "sqlite", path: "data/a.db", retainDays: 1 }, "/ws")).toEqual({
      type: "sqlite",
      file: "/ws/data/a.db",
    });
    expect(databaseSpec({ type: "memory" }, "/ws")).toBeUndefined();
  });
});
