/**
 * The scripted model as Claude plans in plan mode (docs/control.md "Plan, then approve"): it
 * writes its plan to the plan file the runtime names in its plan-mode reminder, calls
 * ExitPlanMode, revises the plan on feedback, and once the plan is approved writes the file it
 * planned (`hello.txt`). For the tests of plan approval, whichever client approves.
 */
import { reply, text, toolUse, type Rule } from "./model.js";

export const PLAN_V1 = "# Plan\n\n1. Write hello.txt saying hi.\n";
export const PLAN_V2 = "# Plan\n\n1. Write hello.txt saying hi.\n2. Write README.md.\n";
/** The feedback the revision rule answers. */
export const PLAN_FEEDBACK = "Also add a README";
/** The prompt the planning rule answers. */
export const PLAN_PROMPT = "Make hello";

/** The config that lets a message ask for plan mode. */
export const PLAN_CONFIG = { claude: { allowedPermissionModes: ["plan" as const] } };

export function planningRules(): Rule[] {
  let planFile = "";
  const planPath = (body: unknown) => {
    const found = /create your plan at (\S+?\.md)/.exec(JSON.stringify(body))?.[1];
    if (found !== undefined) planFile = found;
    return planFile;
  };
  return [
    {
      name: "carry out",
      match: { lastUserText: "User has approved your plan" },
      reply: reply(toolUse("Write", { file_path: "hello.txt", content: "hi\n" })),
    },
    {
      name: "done",
      match: { toolResult: /File created successfully at: hello\.txt/ },
      reply: reply(text("Wrote hello.txt as planned.")),
    },
    {
      name: "revise",
      match: { toolResult: PLAN_FEEDBACK },
      reply: () => reply(toolUse("Write", { file_path: planFile, content: PLAN_V2 })),
    },
    {
      name: "exit plan mode",
      match: { toolResult: /plans\/.*\.md/ },
      reply: reply(toolUse("ExitPlanMode", {})),
    },
    {
      name: "plan",
      match: { lastUserText: PLAN_PROMPT, toolResult: false },
      reply: (req) => reply(toolUse("Write", { file_path: planPath(req.body), content: PLAN_V1 })),
    },
  ];
}
