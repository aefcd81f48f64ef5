import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import ipaddr from "ipaddr.js";
import { refuse, type Checked, type Refusal } from "../../common/refusal.js";

/**
 * Which webhooks the server may POST task events to. A client names the URL, so without a check
 * any caller could make the server reach its own loopback services, the LAN or a cloud metadata
 * endpoint. Only public addresses pass by default; `server.pushAllowPrivateNetworks` lifts that
 * for deployments whose webhooks live on a private network. The URL is checked when a client sets
 * it and again at every delivery against the addresses the host resolves to then, and the
 * delivery connects to exactly those addresses (see webhook-post.ts): a DNS answer that changes
 * between the two checks cannot slip a private address in.
 */

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address of a host name (injectable: tests never resolve or reach a real host). */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface PushTargetPolicy {
  readonly allowPrivateNetworks: boolean;
  readonly resolve: Resolve;
}

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export const pushTargetPolicy = (
  allowPrivateNetworks: boolean,
  resolve: Resolve = systemResolve,
): PushTargetPolicy => ({ allowPrivateNetworks, resolve });

// ---- addresses (pure) -------------------------------------------------------------------------

/** Ranges no webhook can live in, whatever the switch says. */
const NEVER = new Set(["unspecified", "multicast", "broadcast"]);

const LABELS: Record<string, string> = {
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  carrierGradeNat: "shared (carrier-grade NAT)",
  unspecified: "unspecified",
  multicast: "multicast",
  broadcast: "broadcast",
  invalid: "invalid",
};

/** The IPv4 address an IPv6 address stands for, when it is one of the embedding forms. */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = ip.parts;
  const last32 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  switch (range) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d
      return last32();
    case "rfc6052": // NAT64 64:ff9b::a.b.c.d; the local-use 64:ff9b:1::/48 stays unwrapped
      return p[1] === 0xff9b && p[2] === 0 ? last32() : undefined;
    case "6to4": // 2002:aabb:ccdd::
      return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
    default:
      // The deprecated IPv4-compatible ::a.b.c.d (ipaddr.js calls it unicast).
      return p.slice(0, 6).every((x) => x === 0) && range === "unicast" ? last32() : undefined;
  }
}

/**
 * The range an address belongs to in ipaddr.js's names (`unicast` is a public address), an
 * IPv6 address that embeds an IPv4 one (mapped, NAT64, 6to4, compatible) being classified as
 * that IPv4 address; undefined when `address` is not an IP address.
 */
export function addressRange(address: string): string | undefined {
  if (isIP(address) === 0) return undefined;
  const ip = ipaddr.parse(address);
  if (ip.kind() === "ipv4") return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range: string = v6.range();
  const inner = embeddedIPv4(v6, range);
  return inner === undefined ? range : inner.range();
}

export interface AddressRefusal {
  /** "loopback", "private", "link-local"… */
  readonly label: string;
  /** Refused whatever `server.pushAllowPrivateNetworks` says. */
  readonly always: boolean;
}

/** Why a webhook may not be reached at `address`, or undefined when it may. */
export function addressRefusal(
  address: string,
  allowPrivateNetworks: boolean,
): AddressRefusal | undefined {
  const range = addressRange(address) ?? "invalid";
  if (range === "unicast") return undefined;
  const label = LABELS[range] ?? `special-purpose (${range})`;
  if (NEVER.has(range) || range === "invalid") return { label, always: true };
  return allowPrivateNetworks ? undefined : { label, always: false };
}

const article = (word: string) => (/^(?:[aeio]|u(?!ni))/.test(word) ? "an" : "a");

function refusalText(host: string, address: string, r: AddressRefusal): string {
  const what = `${article(r.label)} ${r.label} address`;
  const where = address === host ? `${host} is ${what}` : `${host} resolves to ${address}, ${what}`;
  return r.always
    ? `${where}, which cannot be a webhook`
    : `${where}; webhooks must have public addresses unless server.pushAllowPrivateNetworks is true`;
}

// ---- URLs (pure) ------------------------------------------------------------------------------

export type UrlCheck = Checked<{ url: URL; host: string }>;

/** Scheme and credentials: what can be said of a webhook URL without resolving it. */
export function checkWebhookUrl(raw: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("the webhook URL is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return refuse(`the webhook URL must be http or https, not ${url.protocol}`);
  // Credentials in a URL end up in logs and proxies; the config's token is the place for them.
  if (url.username !== "" || url.password !== "")
    return refuse(
      "the webhook URL must not carry credentials (user:password@); use the config's token or authentication",
    );
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") return refuse("the webhook URL has no host");
  return { ok: true, url, host };
}

// ---- the whole check --------------------------------------------------------------------------

export type PushTarget =
  | { ok: true; url: URL; addresses: readonly ResolvedAddress[] }
  /** `retry`: the refusal may not last (the host did not resolve). */
  | (Refusal & { retry: boolean });

/**
 * Checks a webhook URL and resolves its host; every address must pass, since the connection may
 * go to any of them. The addresses returned are the only ones a delivery may connect to.
 */
export async function resolvePushTarget(
  raw: string,
  policy: PushTargetPolicy,
): Promise<PushTarget> {
  const checked = checkWebhookUrl(raw);
  if (!checked.ok) return { ...checked, retry: false };
  const { url, host } = checked;
  const family = isIP(host);
  let addresses: readonly ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const why = typeof code === "string" ? ` (${code})` : "";
      return { ...refuse(`the webhook host ${host} could not be resolved${why}`), retry: true };
    }
    if (addresses.length === 0)
      return { ...refuse(`the webhook host ${host} has no address`), retry: true };
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy.allowPrivateNetworks);
    if (refusal !== undefined)
      return { ...refuse(refusalText(host, address, refusal)), retry: false };
  }
  return { ok: true, url, addresses };
}

/**
 * The check when a client sets a push config (CreateTaskPushNotificationConfig, or
 * `configuration.taskPushNotificationConfig` on a message): an invalid-params error, before
 * anything is stored. Delivery checks again (push-sender.ts).
 */
export async function assertPushTarget(url: string, policy: PushTargetPolicy): Promise<void> {
  const target = await resolvePushTarget(url, policy);
  if (!target.ok)
    throw new RequestMalformedError(`Push notification config refused: ${target.reason}.`);
}
