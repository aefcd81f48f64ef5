/** A problem that stops startup; `message` is ready to print as is. */
export class StartupError extends Error {}
