/**
 * `npm run smoke`: the README's smoke scenarios against a claude-a2a server that is already
 * running (A2A_URL, default http://localhost:3008), with whatever model it uses.
 */
import { beforeAll, describe, it } from "vitest";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import {
  defaultSmokeDir,
  smokeCancel,
  smokeInput,
  smokeOverlap,
  smokePermission,
  smokeV1,
  type SmokeContext,
} from "./scenarios.js";

const url = process.env.A2A_URL ?? "http://localhost:3008";
let client: Client;
const ctx = (): SmokeContext => ({ client, smokeDir: defaultSmokeDir() });

beforeAll(async () => {
  client = await new ClientFactory().createFromUrl(url);
});

describe(`smoke against ${url}`, () => {
  it("smoke:v1 — a plain single-turn task", () => smokeV1(ctx()));
  it("smoke:cancel — CancelTask on a running task", () => smokeCancel(ctx()));
  it("smoke:input — AskUserQuestion bridged to input-required, and the resume", () =>
    smokeInput(ctx()));
  it("smoke:overlap — a follow-up to a working task is refused; the running turn is untouched", () =>
    smokeOverlap(ctx()));
  it("smoke:permission — a structured deny beats a contradicting yes; oui, vas-y allows", () =>
    smokePermission(ctx()));
});
