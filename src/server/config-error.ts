/** A setting in the environment is missing or malformed: the server refuses to start and says which. */
export class ConfigError extends Error {}
