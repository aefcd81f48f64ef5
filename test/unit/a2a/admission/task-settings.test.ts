import { describe, expect, it } from "vitest";
import {
  modelPolicyOf,
  TASK_OPTIONS_EXTENSION_URI,
  taskOptionsExtension,
  withTaskOptions,
  type ModelPolicy,
} from "../../../../src/contract/task-options.js";
import { buildAgentCard } from "../../../../src/a2a/card/agent-card.js";
import { requestedSettings } from "../../../../src/a2a/admission/task-settings.js";
import { resolveConfig } from "../../../../src/config/load.js";

const policy: ModelPolicy = {
  defaultModel: "claude-sonnet-4-5",
  allowedModels: ["claude-opus-4-5", "claude-haiku-4-5"],
  defaultEffort: undefined,
  allowedEfforts: ["low", "high"],
};
const none: ModelPolicy = {
  defaultModel: "claude-sonnet-4-5",
  allowedModels: [],
  defaultEffort: "medium",
  allowedEfforts: [],
};

describe("requestedSettings: a message's model and effort", () => {
  it.each([
    ["nothing asked: the defaults", undefined, policy, {}],
    ["an allowed model", { model: "claude-opus-4-5" }, policy, { model: "claude-opus-4-5" }],
    [
      "the default model, even with none allowed",
      { model: "claude-sonnet-4-5" },
      none,
      {
        model: "claude-sonnet-4-5",
      },
    ],
    [
      "the default effort, even with none allowed",
      { effort: "medium" },
      none,
      { effort: "medium" },
    ],
    [
      "both",
      { model: "claude-haiku-4-5", effort: "high" },
      policy,
      {
        model: "claude-haiku-4-5",
        effort: "high",
      },
    ],
    ["other keys are not ours", { maxBudgetUsd: 1, note: "x" }, none, {}],
  ] as const)("allows %s", (_name, metadata, p, settings) => {
    expect(requestedSettings(metadata, p)).toEqual({ ok: true, settings });
  });

  it.each([
    [
      { model: "claude-opus-4-1" },
      policy,
      'metadata.model "claude-opus-4-1" is not allowed on this server (claude.allowedModels); allowed: "claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5".',
    ],
    [
      { model: "claude-opus-4-5" },
      none,
      'metadata.model "claude-opus-4-5" is not allowed on this server (claude.allowedModels); allowed: "claude-sonnet-4-5".',
    ],
    [
      { model: 4 },
      policy,
      'metadata.model 4 is not allowed on this server (claude.allowedModels); allowed: "claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5".',
    ],
    [
      { model: "x" },
      { ...none, defaultModel: undefined },
      'metadata.model "x" is not allowed on this server (claude.allowedModels); allowed: none.',
    ],
    [
      { effort: "max" },
      policy,
      'metadata.effort "max" is not allowed on this server (claude.allowedEfforts); allowed: "low", "high".',
    ],
    [
      { effort: "turbo" },
      { ...policy, allowedEfforts: [] },
      'metadata.effort "turbo" is not allowed on this server (claude.allowedEfforts); allowed: none.',
    ],
    [
      { model: "claude-opus-4-5", effort: "high" },
      none,
      'metadata.model "claude-opus-4-5" is not allowed on this server (claude.allowedModels); allowed: "claude-sonnet-4-5".',
    ],
  ] as const)("refuses %j, naming what is allowed", (metadata, p, reason) => {
    expect(requestedSettings(metadata, p)).toEqual({ ok: false, reason });
  });
});

describe("the card's task-options extension", () => {
  const card = buildAgentCard(resolveConfig({}, { file: "t.json", startDir: "/work" }), {
    version: "1",
  });

  it("is declared only when a message has a choice, listing the defaults first", () => {
    expect(taskOptionsExtension(none)).toBeUndefined();
    expect(withTaskOptions(card, none)).toBe(card);
    const declared = withTaskOptions(card, policy).capabilities?.extensions.at(-1);
    expect(declared).toMatchObject({
      uri: TASK_OPTIONS_EXTENSION_URI,
      required: false,
      params: {
        modelKey: "model",
        effortKey: "effort",
        models: ["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"],
        efforts: ["low", "high"],
        defaultModel: "claude-sonnet-4-5",
      },
    });
    expect(withTaskOptions(card, policy).capabilities?.extensions).toHaveLength(
      (card.capabilities?.extensions.length ?? 0) + 1,
    );
  });

  it("reads the policy from claude.model, allowedModels, effort and allowedEfforts", () => {
    const config = resolveConfig(
      { claude: { model: "m", allowedModels: ["n"], effort: "low", allowedEfforts: ["max"] } },
      { file: "t.json", startDir: "/work" },
    );
    expect(modelPolicyOf(config.claude)).toEqual({
      defaultModel: "m",
      allowedModels: ["n"],
      defaultEffort: "low",
      allowedEfforts: ["max"],
    });
  });
});
