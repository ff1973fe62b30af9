// The port a server listens on unless configured: a leaf, so the `capture` client knows it without loading the configuration.
export const DEFAULT_PORT = 8787;
