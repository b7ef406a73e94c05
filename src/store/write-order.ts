/**
 * Writes of one process that reach the database in the order they were given: on two pooled
 * connections a later answer could commit first, and "the first answer counts" means the first
 * given here (across processes, the first committed). Each call of the function it gives waits
 * for the writes before it, failed or not.
 */
export function writesInOrder(): <T>(write: () => Promise<T>) => Promise<T> {
  let writes: Promise<unknown> = Promise.resolve();
  return (write) => {
    const result = writes.then(write);
    writes = result.catch(() => {});
    return result;
  };
}
