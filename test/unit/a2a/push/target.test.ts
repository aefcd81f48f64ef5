import { describe, expect, it } from "vitest";
import {
  addressRange,
  addressRefusal,
  checkWebhookUrl,
  pushTargetPolicy,
  resolvePushTarget,
  type Resolve,
} from "../../../../src/a2a/push/target.js";

/** address → range, the range deciding whether a webhook there is refused. */
const ADDRESSES: [address: string, range: string][] = [
  // public
  ["8.8.8.8", "unicast"],
  ["93.184.216.34", "unicast"],
  ["2606:4700::1111", "unicast"],
  ["::ffff:8.8.8.8", "unicast"], // IPv4-mapped: classified as the IPv4 address it carries
  ["64:ff9b::808:808", "unicast"], // NAT64 of 8.8.8.8
  ["2002:808:808::1", "unicast"], // 6to4 of 8.8.8.8
  // loopback
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:0:127.0.0.1", "loopback"], // RFC 6145 translated form
  ["::7f00:1", "loopback"], // deprecated IPv4-compatible form
  ["64:ff9b::7f00:1", "loopback"],
  ["2002:7f00:1::1", "loopback"],
  // private
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:192.168.0.1", "private"],
  ["64:ff9b::a00:1", "private"],
  // neighbours of the private ranges are public
  ["172.15.255.255", "unicast"],
  ["172.32.0.0", "unicast"],
  ["11.0.0.1", "unicast"],
  // shared address space (carrier-grade NAT)
  ["100.64.0.1", "carrierGradeNat"],
  ["100.127.255.255", "carrierGradeNat"],
  ["100.128.0.0", "unicast"],
  // link-local (cloud metadata lives here)
  ["169.254.169.254", "linkLocal"],
  ["fe80::1", "linkLocal"],
  ["febf::1", "linkLocal"],
  ["::ffff:169.254.169.254", "linkLocal"],
  // unique-local
  ["fc00::1", "uniqueLocal"],
  ["fd12:3456::1", "uniqueLocal"],
  // unspecified, multicast, broadcast
  ["0.0.0.0", "unspecified"],
  ["::", "unspecified"],
  ["::ffff:0.0.0.0", "unspecified"],
  ["224.0.0.1", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  // other special-purpose ranges
  ["192.0.2.1", "reserved"],
  ["240.0.0.1", "reserved"],
  ["2001:db8::1", "reserved"],
  ["fec0::1", "deprecatedSiteLocal"],
  ["64:ff9b:1::a00:1", "rfc6052"], // local-use NAT64 prefix: not unwrapped, not public
];

describe("addressRange", () => {
  it.each(ADDRESSES)("%s is %s", (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it("is undefined for anything that is not an IP address", () => {
    for (const s of ["localhost", "", "1.2.3", "::ffff:1.2.3.4.5", "example.com"]) {
      expect(addressRange(s)).toBeUndefined();
    }
  });
});

describe("addressRefusal", () => {
  it.each(ADDRESSES)("%s (%s): only public addresses pass by default", (address, range) => {
    expect(addressRefusal(address, false) === undefined).toBe(range === "unicast");
  });

  it.each(ADDRESSES)(
    "%s (%s): with pushAllowPrivateNetworks, all but unspecified, multicast and broadcast pass",
    (address, range) => {
      const never = ["unspecified", "multicast", "broadcast"].includes(range);
      expect(addressRefusal(address, true) === undefined).toBe(!never);
    },
  );

  it("names the range", () => {
    expect(addressRefusal("127.0.0.1", false)).toEqual({ label: "loopback", always: false });
    expect(addressRefusal("100.64.0.1", false)?.label).toBe("shared (carrier-grade NAT)");
    expect(addressRefusal("fe80::1", false)?.label).toBe("link-local");
    expect(addressRefusal("fd00::1", false)?.label).toBe("unique-local");
    expect(addressRefusal("0.0.0.0", true)).toEqual({ label: "unspecified", always: true });
    expect(addressRefusal("192.0.2.1", false)?.label).toBe("special-purpose (reserved)");
  });
});

describe("checkWebhookUrl", () => {
  it.each([
    ["https://hooks.example.com/a2a?x=1", "hooks.example.com"],
    ["http://93.184.216.34:8080/hook", "93.184.216.34"],
    ["http://[2606:4700::1111]/hook", "2606:4700::1111"],
    ["HTTP://Example.COM/", "example.com"],
    ["http://2130706433/", "127.0.0.1"], // the URL parser normalizes numeric hosts
    ["http://0x7f.1/", "127.0.0.1"],
  ])("accepts %s (host %s)", (raw, host) => {
    const check = checkWebhookUrl(raw);
    expect(check.ok && check.host).toBe(host);
  });

  it.each([
    ["", /not a valid absolute URL/],
    ["/relative/hook", /not a valid absolute URL/],
    ["hooks.example.com/a2a", /not a valid absolute URL/],
    ["ftp://example.com/hook", /must be http or https, not ftp:/],
    ["file:///etc/passwd", /must be http or https, not file:/],
    ["javascript:alert(1)", /must be http or https/],
    ["ws://example.com/", /must be http or https/],
    ["https://user:pw@example.com/hook", /must not carry credentials/],
    ["https://user@example.com/hook", /must not carry credentials/],
    ["https://:pw@example.com/hook", /must not carry credentials/],
  ])("refuses %j", (raw, reason) => {
    const check = checkWebhookUrl(raw);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it("never repeats the credentials in its reason", () => {
    const check = checkWebhookUrl("https://alice:s3cret@example.com/hook");
    expect(!check.ok && check.reason).not.toMatch(/alice|s3cret/);
  });
});

describe("resolvePushTarget", () => {
  const noDns: Resolve = (host) => Promise.reject(new Error(`unexpected lookup of ${host}`));
  const dns =
    (table: Record<string, string[]>): Resolve =>
    (host) =>
      Promise.resolve(
        (table[host] ?? []).map((address) => ({
          address,
          family: address.includes(":") ? 6 : 4,
        })),
      );

  it("checks an IP literal without any lookup", async () => {
    const policy = pushTargetPolicy(false, noDns);
    expect(await resolvePushTarget("http://10.0.0.1/", policy)).toEqual({
      ok: false,
      retry: false,
      reason:
        "10.0.0.1 is a private address; webhooks must have public addresses unless server.pushAllowPrivateNetworks is true",
    });
    expect(await resolvePushTarget("http://[::1]:9/", policy)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^::1 is a loopback address/) as unknown,
    });
    const allowed = await resolvePushTarget("http://127.0.0.1:9/", pushTargetPolicy(true, noDns));
    expect(allowed.ok && allowed.addresses).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });

  it("resolves a name and checks every address it gets", async () => {
    const policy = pushTargetPolicy(
      false,
      dns({
        "public.test": ["93.184.216.34", "2606:4700::1111"],
        "mixed.test": ["93.184.216.34", "fd00::1"],
        "localhost.test": ["127.0.0.1"],
        "empty.test": [],
      }),
    );
    const ok = await resolvePushTarget("https://public.test/hook", policy);
    expect(ok.ok && ok.addresses.map((a) => a.address)).toEqual([
      "93.184.216.34",
      "2606:4700::1111",
    ]);
    expect(await resolvePushTarget("https://mixed.test/hook", policy)).toMatchObject({
      ok: false,
      retry: false,
      reason: expect.stringContaining(
        "mixed.test resolves to fd00::1, a unique-local address",
      ) as unknown,
    });
    expect(await resolvePushTarget("https://localhost.test/", policy)).toMatchObject({
      ok: false,
      retry: false,
    });
    expect(await resolvePushTarget("https://empty.test/", policy)).toMatchObject({
      ok: false,
      retry: true,
    });
  });

  it("refuses an unusable URL before any lookup", async () => {
    const policy = pushTargetPolicy(true, noDns);
    expect(await resolvePushTarget("https://u:p@127.0.0.1/", policy)).toMatchObject({
      ok: false,
      retry: false,
    });
    expect(await resolvePushTarget("gopher://127.0.0.1/", policy)).toMatchObject({ ok: false });
    // Never a webhook, whatever the switch says.
    expect(await resolvePushTarget("http://0.0.0.0:9/", policy)).toMatchObject({
      ok: false,
      reason: "0.0.0.0 is an unspecified address, which cannot be a webhook",
    });
  });
});
