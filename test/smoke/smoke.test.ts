/**
 * `npm run smoke`: the README's smoke scenarios against a claude-a2a server that is already
 * running (A2A_URL, default http://localhost:3008), with whatever model it uses.
 */
import { beforeAll, describe } from "vitest";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { defaultSmokeDir, defineSmokeTests, type SmokeContext } from "./scenarios.js";

const url = process.env.A2A_URL ?? "http://localhost:3008";
let client: Client;
const ctx = (): SmokeContext => ({ client, smokeDir: defaultSmokeDir() });

beforeAll(async () => {
  client = await new ClientFactory().createFromUrl(url);
});

describe(`smoke against ${url}`, () => {
  defineSmokeTests(ctx);
});
