import { createHash } from "node:crypto";
import {
  A2A_PROTOCOL_VERSION,
  AgentCard,
  type AgentInterface,
  type SecurityScheme,
} from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import type { Config } from "../../config/schema.js";
import { CONTROLS, controlExtension, type Control } from "../../contract/control.js";
import { eventsExtension } from "../../contract/extension.js";
import { generationsExtension } from "../../contract/generations.js";

/** Where the bindings are mounted, relative to `server.publicUrl`. */
export const JSONRPC_PATH = "/a2a/jsonrpc";
export const REST_PATH = "/a2a/rest";

export interface CardOptions {
  /** Package version; used when `agentCard.version` is not set. */
  version: string;
}

/** The agent card, in the SDK's in-memory form (serve `agentCardJson(card)`, not this). */
export function buildAgentCard(
  config: Pick<Config, "server" | "agentCard"> & {
    readonly claude?: ModeAllowlist;
    /** Unset: as with `replay.enabled` (its default), the generations extension listed. */
    readonly replay?: Pick<Config["replay"], "enabled">;
  },
  options: CardOptions,
): AgentCard {
  const { agentCard: c, server } = config;
  const base = server.publicUrl.replace(/\/+$/, "");
  return {
    name: c.name,
    description: c.description,
    version: c.version ?? options.version,
    supportedInterfaces: interfaces(base, server.compat.v03, server.grpc),
    provider: c.provider
      ? { organization: c.provider.organization, url: c.provider.url }
      : undefined,
    documentationUrl: c.documentationUrl,
    iconUrl: c.iconUrl,
    capabilities: {
      streaming: c.capabilities.streaming,
      pushNotifications: c.capabilities.pushNotifications,
      extensions: [
        eventsExtension(),
        ...optional(controlExtension(controlsOn(server, config.claude), modesOf(config))),
        // A generation is an event number: none without replay.
        ...optional(config.replay?.enabled !== false ? generationsExtension() : undefined),
      ],
      // The extended card is for identified callers: without authentication there is none.
      extendedAgentCard: authenticationConfigured(server),
    },
    ...security(server.auth),
    defaultInputModes: [...c.defaultInputModes],
    defaultOutputModes: [...c.defaultOutputModes],
    skills: c.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: [...s.tags],
      examples: [...(s.examples ?? [])],
      inputModes: [...(s.inputModes ?? [])],
      outputModes: [...(s.outputModes ?? [])],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

type ModeAllowlist = Pick<Config["claude"], "allowedPermissionModes">;

/**
 * The controls of the control extension that are on, in `CONTROLS` order: each as
 * `server.control` says; `plan` also needs the workspace's `claude.allowedPermissionModes` to
 * list it (unset `claude`: the server's switches alone, as `--check` reads them).
 */
export function controlsOn(
  server: Pick<Config["server"], "control">,
  claude?: ModeAllowlist,
): Control[] {
  return CONTROLS.filter(
    (c) =>
      server.control[c] &&
      (c !== "plan" || claude?.allowedPermissionModes.includes("plan") === true),
  );
}

/** The permission modes a message may ask for (`plan` only while its control is on). */
export function allowedModes(
  server: Pick<Config["server"], "control">,
  claude: ModeAllowlist,
): Config["claude"]["allowedPermissionModes"] {
  return claude.allowedPermissionModes.filter((m) => m !== "plan" || server.control.plan);
}

const modesOf = (config: { server: Pick<Config["server"], "control">; claude?: ModeAllowlist }) =>
  config.claude === undefined ? [] : allowedModes(config.server, config.claude);

const optional = <T>(item: T | undefined): T[] => (item === undefined ? [] : [item]);

/** Whether callers are identified: tokens, OpenID Connect or a login gate. */
export function authenticationConfigured(
  server: Pick<Config["server"], "auth" | "allowedLogins">,
): boolean {
  return (
    server.auth.tokens.length > 0 ||
    server.auth.oidc !== undefined ||
    (server.allowedLogins?.length ?? 0) > 0
  );
}

/**
 * JSON-RPC first: a client takes the first interface it supports. With v0.3 compatibility, each
 * binding is listed a second time at version 0.3, after the v1.0 ones (a v1.0 client prefers a
 * 1.0 entry; the SDK's handlers serve v0.3 only on a binding the card lists at 0.3).
 */
function interfaces(
  base: string,
  compatV03: boolean,
  grpc: Config["server"]["grpc"],
): AgentInterface[] {
  const v1: AgentInterface[] = [
    {
      url: `${base}${JSONRPC_PATH}`,
      protocolBinding: "JSONRPC",
      protocolVersion: A2A_PROTOCOL_VERSION,
      tenant: "",
    },
    {
      url: `${base}${REST_PATH}`,
      protocolBinding: "HTTP+JSON",
      protocolVersion: A2A_PROTOCOL_VERSION,
      tenant: "",
    },
    // Listed only when it is served: a client may pick any interface the card names. v1.0 only:
    // the SDK's v0.3 gRPC service (another protobuf package) is not served.
    ...(grpc.port === undefined
      ? []
      : [
          {
            url: grpcAddress(grpc, grpc.port),
            protocolBinding: "GRPC",
            protocolVersion: A2A_PROTOCOL_VERSION,
            tenant: "",
          },
        ]),
  ];
  return compatV03 ? duplicateInterfacesForLegacy(v1, ["JSONRPC", "HTTP+JSON"]) : v1;
}

const WILDCARD = /^(0\.0\.0\.0|::|\[::\])$/;

/**
 * What a gRPC client dials (`host:port`, the card's GRPC url): `server.grpc.publicAddress`, else
 * the bind address (an IPv6 one bracketed), `localhost` for a wildcard one. Pure.
 */
export function grpcAddress(
  grpc: Pick<Config["server"]["grpc"], "host" | "publicAddress">,
  port: number,
): string {
  if (grpc.publicAddress !== undefined) return grpc.publicAddress;
  const host = WILDCARD.test(grpc.host) ? "localhost" : grpc.host;
  return `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`;
}

/** The card's name for the bearer-token scheme of `server.auth.tokens`. */
export const BEARER_SCHEME = "bearer";
/** The card's name for the JWT scheme of `server.auth.oidc`. */
export const OIDC_SCHEME = "oidc";

const bearerScheme = (description: string, bearerFormat: string): SecurityScheme => ({
  scheme: {
    $case: "httpAuthSecurityScheme",
    value: { scheme: "Bearer", bearerFormat, description },
  },
});

/** What a client must send to use the OIDC scheme, for its description. */
export function oidcSchemeDescription(oidc: NonNullable<Config["server"]["auth"]["oidc"]>): string {
  const audience = oidc.audience.map((a) => `"${a}"`).join(" or ");
  const scopes =
    oidc.requiredScopes.length > 0 ? ` granting the scopes ${oidc.requiredScopes.join(" ")}` : "";
  return (
    `A JWT from the OpenID Connect provider "${oidc.issuer}" for the audience ${audience}` +
    `${scopes}: Authorization: Bearer <token>.`
  );
}

/**
 * Declares what a client must send: static tokens and OIDC tokens are each an HTTP Bearer
 * scheme (A2A v1.0's HTTPAuthSecurityScheme; the OIDC one with `bearerFormat: "JWT"`), and
 * either satisfies the requirements. An `openIdConnect` scheme would need the provider's
 * discovery URL, which a provider given by static keys may not have. Nothing when neither is set.
 */
function security(
  auth: Config["server"]["auth"],
): Pick<AgentCard, "securitySchemes" | "securityRequirements"> {
  const schemes: Record<string, SecurityScheme> = {};
  if (auth.tokens.length > 0) {
    schemes[BEARER_SCHEME] = bearerScheme(
      "A token from the server's operator: Authorization: Bearer <token>.",
      "",
    );
  }
  if (auth.oidc !== undefined) {
    schemes[OIDC_SCHEME] = bearerScheme(oidcSchemeDescription(auth.oidc), "JWT");
  }
  return {
    securitySchemes: schemes,
    securityRequirements: Object.keys(schemes).map((name) => ({
      schemes: { [name]: { list: [] } },
    })),
  };
}

type Json = Record<string, unknown>;

/**
 * The wire form (ProtoJSON). ProtoJSON drops empty lists, but the spec marks these ones required
 * and clients that validate the card reject it without them, so they are put back.
 */
export function agentCardJson(card: AgentCard): Json {
  const json = AgentCard.toJSON(card) as Json;
  for (const key of ["defaultInputModes", "defaultOutputModes", "skills"]) json[key] ??= [];
  for (const skill of json.skills as Json[]) skill.tags ??= [];
  return json;
}

/** The card as served: its exact bytes and the validators HTTP caches need (spec §8.3). */
export interface CardDocument {
  readonly body: string;
  /** Strong: a hash of exactly these bytes. */
  readonly etag: string;
  /** When the card was built, as an HTTP-date. */
  readonly lastModified: string;
}

export function cardDocument(card: AgentCard, builtAt: Date): CardDocument {
  return jsonCardDocument(agentCardJson(card), builtAt);
}

/** The document of a card already in a wire form (e.g. the v0.3 one). */
export function jsonCardDocument(json: Json, builtAt: Date): CardDocument {
  const body = JSON.stringify(json);
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 32);
  return { body, etag: `"${hash}"`, lastModified: builtAt.toUTCString() };
}
