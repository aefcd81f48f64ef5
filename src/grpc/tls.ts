/**
 * `server.grpc.tls`: the key and certificate files, read and checked (each parses, they belong
 * together, the certificate is in its validity period), so a wrong file stops startup and
 * `--check` with a message naming it instead of failing on the first connection.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

export interface TlsFiles {
  readonly keyFile: string;
  readonly certFile: string;
}

export interface TlsMaterial {
  readonly key: Buffer;
  readonly cert: Buffer;
  /** The certificate's subject and end of validity, for `--check`. */
  readonly subject: string;
  readonly validTo: Date;
}

export class TlsConfigError extends Error {}

async function read(file: string, what: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new TlsConfigError(
      `server.grpc.tls.${what}: cannot read ${file}: ${(err as Error).message}`,
    );
  }
}

/** Reads both files (relative paths against `cwd`, i.e. `claude.cwd`) and checks them. */
export async function loadTls(
  files: TlsFiles,
  cwd: string,
  now = new Date(),
): Promise<TlsMaterial> {
  const keyFile = resolve(cwd, files.keyFile);
  const certFile = resolve(cwd, files.certFile);
  const [key, cert] = await Promise.all([read(keyFile, "keyFile"), read(certFile, "certFile")]);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new TlsConfigError(
      `server.grpc.tls.keyFile: ${keyFile} is not a PEM private key: ${(err as Error).message}`,
    );
  }
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new TlsConfigError(
      `server.grpc.tls.certFile: ${certFile} is not a PEM certificate: ${(err as Error).message}`,
    );
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new TlsConfigError(
      `server.grpc.tls: the key ${keyFile} does not belong to the certificate ${certFile}`,
    );
  }
  const validTo = new Date(x509.validTo);
  if (validTo.getTime() < now.getTime() || new Date(x509.validFrom).getTime() > now.getTime()) {
    throw new TlsConfigError(
      `server.grpc.tls.certFile: ${certFile} is valid from ${x509.validFrom} to ${x509.validTo}, ` +
        `not now`,
    );
  }
  return { key, cert, subject: x509.subject.replace(/\n/g, ", "), validTo };
}
