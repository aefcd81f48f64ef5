import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTls, TlsConfigError } from "../../../src/grpc/tls.js";
import { makeTestCert } from "../../support/tls.js";
import { useTempDir } from "../../support/unit/temp-dir.js";

const dir = useTempDir("a2a-tls-");

describe("server.grpc.tls", () => {
  it("reads a matching key and certificate, relative paths against claude.cwd", async () => {
    const made = await makeTestCert(dir());
    const tls = await loadTls({ keyFile: "server.key", certFile: "server.crt" }, dir());
    expect(tls.cert).toEqual(made.cert);
    expect(tls.subject).toBe("CN=localhost");
    expect(tls.validTo.getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses a missing file, a file that is not PEM, a key of another certificate, a date outside it", async () => {
    await makeTestCert(dir(), "a");
    await makeTestCert(dir(), "b");
    await writeFile(join(dir(), "junk.pem"), "not a key\n");
    const fails = (files: { keyFile: string; certFile: string }, now?: Date) =>
      loadTls(files, dir(), now).then(
        () => "loaded",
        (err: unknown) => {
          expect(err).toBeInstanceOf(TlsConfigError);
          return (err as Error).message;
        },
      );
    expect(await fails({ keyFile: "nope.key", certFile: "a.crt" })).toMatch(
      /^server\.grpc\.tls\.keyFile: cannot read .*nope\.key: ENOENT/,
    );
    expect(await fails({ keyFile: "junk.pem", certFile: "a.crt" })).toMatch(
      /^server\.grpc\.tls\.keyFile: .*junk\.pem is not a PEM private key/,
    );
    expect(await fails({ keyFile: "a.key", certFile: "junk.pem" })).toMatch(
      /^server\.grpc\.tls\.certFile: .*junk\.pem is not a PEM certificate/,
    );
    expect(await fails({ keyFile: "a.key", certFile: "b.crt" })).toMatch(
      /^server\.grpc\.tls: the key .*a\.key does not belong to the certificate .*b\.crt$/,
    );
    const later = new Date(Date.now() + 30 * 86_400_000);
    expect(await fails({ keyFile: "a.key", certFile: "a.crt" }, later)).toMatch(
      /^server\.grpc\.tls\.certFile: .*a\.crt is valid from .* to .*, not now$/,
    );
  });
});
