/**
 * What a client is told about protocol versions: the `-32009` VersionNotSupported messages, and
 * the method-not-found message of a method of the other version. The header a client must send
 * and the config key that changes the answer are named in each.
 */

export const V1 = "1.0";
export const V03 = "0.3";

/** The config key that serves v0.3 clients. */
export const COMPAT_KEY = "server.compat.v03";

const SEND_V1 = `Send the header \`A2A-Version: ${V1}\` with A2A ${V1} requests (methods such as SendMessage)`;

/**
 * Why a request's version is refused. `requested` is the `A2A-Version` header (undefined when
 * absent or empty: A2A reads that as 0.3); `compat` is `server.compat.v03`.
 */
export function versionRefusedMessage(requested: string | undefined, compat: boolean): string {
  if (!compat && (requested === undefined || requested === V03)) {
    const what =
      requested === undefined
        ? `This request has no A2A-Version header, which A2A reads as protocol version ${V03}`
        : `The requested A2A protocol version '${V03}' is not supported`;
    return (
      `${what}: this server speaks A2A ${V1} only. ${SEND_V1}, or have the server's operator ` +
      `set ${COMPAT_KEY} to true to serve A2A ${V03} clients too.`
    );
  }
  const supported = compat ? `${V1}, ${V03}` : V1;
  const how = compat
    ? `${SEND_V1}, or \`A2A-Version: ${V03}\` (or no header) with A2A ${V03} ones.`
    : `${SEND_V1} (${COMPAT_KEY} adds ${V03}).`;
  return (
    `The requested A2A protocol version '${String(requested)}' is not supported. ` +
    `Supported versions: ${supported}. ${how}`
  );
}

/**
 * Why a JSON-RPC method of one version, in a request read as the other, is not found (the SDK
 * answers only "Invalid method." or "Method not found: <method>").
 */
export function otherVersionMethodMessage(o: {
  readonly method: string;
  /** The version the request is read as. */
  readonly readAs: typeof V1 | typeof V03;
  readonly headerSent: boolean;
  /** The same method in the version the request is read as (undefined: it has none). */
  readonly counterpart: string | undefined;
  readonly compat: boolean;
}): string {
  if (o.readAs === V03) {
    const why = o.headerSent
      ? `this request says \`A2A-Version: ${V03}\``
      : `this request has no A2A-Version header, so it is read as A2A ${V03}`;
    const instead =
      o.counterpart === undefined
        ? `A2A ${V03} has no such method`
        : `its A2A ${V03} name is ${o.counterpart}`;
    return (
      `Method not found: ${o.method} is an A2A ${V1} method, but ${why}. ` +
      `Send the header \`A2A-Version: ${V1}\` (${instead}).`
    );
  }
  const served = o.compat
    ? `send it without the A2A-Version header (or with \`A2A-Version: ${V03}\`), as a v${V03} client does`
    : `this server serves A2A ${V03} requests only when ${COMPAT_KEY} is true`;
  return (
    `Method not found: ${o.method} is an A2A ${V03} method, and this request says ` +
    `\`A2A-Version: ${V1}\`. Use ${o.counterpart ?? "its v1.0 name"} instead, or ${served}.`
  );
}
