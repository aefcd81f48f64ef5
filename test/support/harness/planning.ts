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

export interface Planning {
  /** The plan Claude writes first. */
  readonly plan: string;
  /** The plan it writes again when an answer holds `feedback`; none: it never revises. */
  readonly revised?: { readonly feedback: string; readonly plan: string };
}

/** By default Claude plans PLAN_V1 and revises it to PLAN_V2 on PLAN_FEEDBACK. */
export function planningRules(
  p: Planning = { plan: PLAN_V1, revised: { feedback: PLAN_FEEDBACK, plan: PLAN_V2 } },
): Rule[] {
  const revised = p.revised;
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
    ...(revised === undefined
      ? []
      : [
          {
            name: "revise",
            match: { toolResult: revised.feedback },
            reply: () => reply(toolUse("Write", { file_path: planFile, content: revised.plan })),
          },
        ]),
    {
      name: "exit plan mode",
      match: { toolResult: /plans\/.*\.md/ },
      reply: reply(toolUse("ExitPlanMode", {})),
    },
    {
      name: "plan",
      match: { lastUserText: PLAN_PROMPT, toolResult: false },
      reply: (req) => reply(toolUse("Write", { file_path: planPath(req.body), content: p.plan })),
    },
  ];
}
