/**
 * Keeps one value of an async generator in the making while the caller handles the current one: a
 * window's next page is requested while its last page is being committed, so the rate limit is not
 * left idle for the length of a commit. At most one value waits, which bounds the memory it costs.
 */
export async function* readAhead<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let next = source.next();
  try {
    for (;;) {
      let result: IteratorResult<T> | undefined = await next;
      if (result.done === true) return;
      next = source.next();
      // Awaited on the next turn, or dropped below when the caller stops first.
      next.catch(() => undefined);
      yield result.value;
      // A suspended generator keeps its variables: not this value while the next one is awaited.
      result = undefined;
    }
  } finally {
    await next.catch(() => undefined);
    await source.return(undefined);
  }
}
