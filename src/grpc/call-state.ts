/**
 * What the SDK's gRPC service does not carry from a call to its call context and back: the call's
 * span (opened by the tracing interceptor, the parent of the task it starts) and the context's
 * state (where the request handler marks a refusal by a per-caller limit, for the answers
 * interceptor). Keyed by the call's metadata object: grpc-js hands the handler's call the very
 * object the interceptors saw. The SDK's context builder gets only the user, so the user builder
 * links its user to the call.
 */
import type { Metadata } from "@grpc/grpc-js";
import type { User } from "@a2a-js/sdk/server";
import type { TraceSpan } from "../tracing/tracing.js";

const spans = new WeakMap<Metadata, TraceSpan>();
const states = new WeakMap<Metadata, ReadonlyMap<string, unknown>>();
const calls = new WeakMap<User, Metadata>();

export const setCallSpan = (metadata: Metadata, span: TraceSpan): void => {
  spans.set(metadata, span);
};
export const callSpan = (metadata: Metadata | undefined): TraceSpan | undefined =>
  metadata === undefined ? undefined : spans.get(metadata);

export const setCallState = (metadata: Metadata, state: ReadonlyMap<string, unknown>): void => {
  states.set(metadata, state);
};
export const callState = (
  metadata: Metadata | undefined,
): ReadonlyMap<string, unknown> | undefined =>
  metadata === undefined ? undefined : states.get(metadata);

/** The user builder made `user` for the call with this metadata. */
export const linkUser = (user: User, metadata: Metadata): void => {
  calls.set(user, metadata);
};
export const metadataOfUser = (user: User | undefined): Metadata | undefined =>
  user === undefined ? undefined : calls.get(user);
