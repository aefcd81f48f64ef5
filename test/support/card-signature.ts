/**
 * Checks an agent card's signature without the SDK: jose's `flattenedVerify` over a canonical
 * form computed here (RFC 8785 over the served JSON without `signatures`, empty values dropped:
 * A2A v1.0 §8.4.1). The SDK signs and verifies with one canonicalizer, so only an independent
 * one shows that what is served is what was signed.
 */
import type { KeyObject } from "node:crypto";
import {
  base64url,
  decodeProtectedHeader,
  flattenedVerify,
  type ProtectedHeaderParameters,
} from "jose";

type Json = Record<string, unknown>;

/** RFC 8785 for what a card holds (strings, integers, booleans), empty values left out. */
export function canonical(value: unknown): string | undefined {
  if (value === "" || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(canonical).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : `[${items.join(",")}]`;
  }
  if (typeof value === "object") {
    const members = Object.keys(value)
      .sort()
      .flatMap((k) => {
        const v = canonical((value as Json)[k]);
        return v === undefined ? [] : [`${JSON.stringify(k)}:${v}`];
      });
    return members.length === 0 ? undefined : `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Verifies a served (wire-form) card's first signature; throws if it does not hold. */
export async function verifyCardSignature(
  served: Json,
  publicKey: KeyObject,
): Promise<ProtectedHeaderParameters> {
  const { signatures, ...unsigned } = served;
  const [signature] = (signatures ?? []) as { protected: string; signature: string }[];
  if (signature === undefined) throw new Error("the card has no signature");
  const payload = base64url.encode(canonical(unsigned) ?? "{}");
  await flattenedVerify({ ...signature, payload }, publicKey);
  return decodeProtectedHeader(signature);
}
