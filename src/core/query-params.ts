/** A query parameter's value. */
export type QueryScalar = string | number | bigint | boolean;

/** Query parameters of a GET: `undefined` is omitted, a list goes as repeated keys (`account=A&account=B`). */
export type QueryParams = Readonly<Record<string, QueryScalar | readonly (string | number | bigint)[] | undefined>>;
