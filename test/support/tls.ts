/** A throwaway self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI. */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface TestCert {
  readonly keyFile: string;
  readonly certFile: string;
  readonly cert: Buffer;
}

/** Writes `<name>.key` and `<name>.crt` (EC P-256, one day) into `dir`. */
export async function makeTestCert(dir: string, name = "server"): Promise<TestCert> {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    keyFile,
    "-out",
    certFile,
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
  ]);
  return { keyFile, certFile, cert: await readFile(certFile) };
}
