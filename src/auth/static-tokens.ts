import { createHash, timingSafeEqual } from "node:crypto";
import { AuthConfigError, type StaticTokens } from "./verifier.js";

/** A configured token (`server.auth.tokens`: exactly one of `sha256` and `env`). */
export interface TokenSpec {
  readonly name: string;
  readonly sha256?: string | undefined;
  readonly env?: string | undefined;
}

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/** Checks presented bearer tokens against the configured ones, in constant time. */
export class StaticTokenVerifier implements StaticTokens {
  private constructor(private readonly tokens: readonly { name: string; digest: Buffer }[]) {}

  /** Reads `env` tokens now: a missing or empty variable is a startup error naming it. */
  static from(
    specs: readonly TokenSpec[],
    env: NodeJS.ProcessEnv = process.env,
  ): StaticTokenVerifier {
    return new StaticTokenVerifier(
      specs.map((spec) => {
        if (spec.sha256 !== undefined) {
          return { name: spec.name, digest: Buffer.from(spec.sha256, "hex") };
        }
        const value = spec.env === undefined ? undefined : env[spec.env];
        if (value === undefined || value === "") {
          throw new AuthConfigError(
            `server.auth.tokens: token "${spec.name}" reads environment variable ` +
              `${spec.env ?? "(none)"}, which is not set`,
          );
        }
        return { name: spec.name, digest: digest(value) };
      }),
    );
  }

  get size(): number {
    return this.tokens.length;
  }

  /** The name of the token presented, or undefined. Every token is compared, match or not. */
  match(presented: string): string | undefined {
    const candidate = digest(presented);
    let match: string | undefined;
    for (const token of this.tokens) {
      if (timingSafeEqual(candidate, token.digest) && match === undefined) match = token.name;
    }
    return match;
  }
}
