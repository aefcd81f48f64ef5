/**
 * A workspace's name: one URL path segment (`/agents/<name>/`) and, with a PostgreSQL store, part
 * of a schema name, so lowercase letters, digits and inner hyphens only (like a DNS label). A
 * peer's name has the same shape (docs/peers.md).
 */
export const WORKSPACE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const WORKSPACE_NAME_ERROR =
  "expected a workspace name: lowercase letters, digits and inner hyphens, at most 63 characters";
