/**
 * `npm run smoke`: docs/testing.md's smoke scenarios against a claude-a2a server that is already
 * running (A2A_URL, default http://localhost:3008; A2A_TOKEN when it wants a bearer token), with
 * whatever model it uses.
 */
import { beforeAll, describe } from "vitest";
import type { Client } from "@a2a-js/sdk/client";
import { connect } from "../../src/client/connect.js";
import { defaultSmokeDir, defineSmokeTests, type SmokeContext } from "./scenarios.js";

const url = process.env.A2A_URL ?? "http://localhost:3008";
let client: Client;
const ctx = (): SmokeContext => ({ client, smokeDir: defaultSmokeDir() });

beforeAll(async () => {
  client = await connect(url, process.env.A2A_TOKEN);
});

describe(`smoke against ${url}`, () => {
  defineSmokeTests(ctx);
});
