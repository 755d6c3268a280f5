/**
 * Documentation carried by the pipeline schema itself (zod 4 `.meta()`), read by `describeOptions`.
 * `description` is zod's own; these cover what the schema's shape cannot say by itself.
 */
declare module 'zod' {
  interface GlobalMeta {
    /** How the option's type reads in help and docs, e.g. `address` or `integer ≥ 0`. */
    typeLabel?: string;
    /** The default in words, for defaults that depend on other options or on the environment. */
    defaultLabel?: string;
    /** What a list option holds, plural, for messages that count them (`addresses`); set on stream filters that are lists. */
    listOf?: string;
  }
}

export {};
