import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

/** Colours only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org). */
export function colorEnabled(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY === true;
}

export const makeColors = (enabled: boolean): Colors => pc.createColors(enabled);
