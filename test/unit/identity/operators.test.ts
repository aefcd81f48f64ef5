import { describe, expect, it } from "vitest";
import {
  actingOperator,
  mayAct,
  OPERATOR_STATE_KEY,
  operatorScopes,
  type Access,
  type TaskAction,
} from "../../../src/identity/operators.js";

const ALICE = "token:alice";
const ops = { owner: "token:ops", operator: true };
const bob = { owner: "token:bob", operator: false };

type Row = [string, { owner: string; operator: boolean }, string, TaskAction, Access];

/** One row per action of `actor` on alice's task, named as "<who>, alice's task, <action>". */
const onAlicesTask = (actor: Row[1], who: string, access: Record<TaskAction, Access>): Row[] =>
  (Object.entries(access) as [TaskAction, Access][]).map(([action, a]) => [
    `${who}, alice's task, ${action.replace("_", " ")}`,
    actor,
    ALICE,
    action,
    a,
  ]);

describe("mayAct: who may do what to a task", () => {
  // [actor, task owner, action, access]
  const table: Row[] = [
    // A caller's own task: everything, operator or not.
    ["bob, his own task, read", bob, bob.owner, "read", "own"],
    ["bob, his own task, answer", bob, bob.owner, "answer", "own"],
    ["bob, his own task, push config", bob, bob.owner, "push_config", "own"],
    ["bob, his own task, start", bob, bob.owner, "start", "own"],
    ["ops, its own task, cancel", ops, ops.owner, "cancel", "own"],
    ["ops, its own task, push config", ops, ops.owner, "push_config", "own"],
    // Another caller's task, without the role: as if it did not exist.
    ...onAlicesTask(bob, "bob", {
      read: "none",
      subscribe: "none",
      answer: "none",
      cancel: "none",
      push_config: "none",
      start: "none",
    }),
    // With the role: see, follow, answer, cancel; never her webhooks, never new work of hers.
    ...onAlicesTask(ops, "ops", {
      read: "operator",
      subscribe: "operator",
      answer: "operator",
      cancel: "operator",
      push_config: "none",
      start: "none",
    }),
    // The anonymous caller's tasks are another caller's too.
    ["ops, an anonymous task, answer", ops, "unknown", "answer", "operator"],
    ["bob, an anonymous task, read", bob, "unknown", "read", "none"],
  ];
  it.each(table)("%s", (_name, actor, owner, action, access) => {
    expect(mayAct(actor, owner, action)).toBe(access);
  });
});

describe("operatorScopes: server.operators as caller scopes", () => {
  it("maps token names, allowed logins and oidc subjects to their scopes", () => {
    const scopes = operatorScopes({
      operators: ["ops", "ada@example.com", "oidc:u-1"],
      tokens: ["ops", "ci"],
      logins: ["ada@example.com"],
    });
    expect([...scopes].sort()).toEqual(["login:ada@example.com", "oidc:u-1", "token:ops"]);
  });

  it("grants nothing for a name no configured caller has, or an empty subject", () => {
    // The config refuses these at startup; the mapping is safe on its own too.
    expect([
      ...operatorScopes({ operators: ["opz", "oidc:"], tokens: ["ops"], logins: [] }),
    ]).toEqual([]);
    // A login never becomes a token's scope, nor a token a login's.
    expect([...operatorScopes({ operators: ["ci"], tokens: [], logins: ["ci"] })]).toEqual([
      "login:ci",
    ]);
  });

  it("none configured: no operator", () => {
    expect(operatorScopes({ operators: [], tokens: ["ops"], logins: [] }).size).toBe(0);
  });
});

describe("actingOperator", () => {
  it("reads the operator a request acts for from its state", () => {
    expect(actingOperator(new Map([[OPERATOR_STATE_KEY, "ops"]]))).toBe("ops");
    expect(actingOperator(new Map())).toBeUndefined();
    expect(actingOperator(undefined)).toBeUndefined();
  });
});
