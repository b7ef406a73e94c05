/** Saving or reading the conversation failed (the disk is full, the database is locked, down or damaged). */
export class StoreError extends Error {
  override name = 'StoreError';
  readonly code = 'store-failed';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/**
 * Runs a store operation; whatever it throws, or the promise it returns rejects with, comes out as
 * a StoreError saying what was being done (a queued write's sync throw stays sync).
 */
export function storeCall<T>(what: string, operation: () => T): T {
  const failed = (error: unknown) =>
    error instanceof StoreError
      ? error
      : new StoreError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  try {
    const value = operation();
    if (value instanceof Promise)
      return value.catch((error: unknown) => {
        throw failed(error);
      }) as T;
    return value;
  } catch (error) {
    throw failed(error);
  }
}
