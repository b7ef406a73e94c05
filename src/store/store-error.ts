/** Saving or reading the conversation failed (the disk is full, the database is locked or damaged). */
export class StoreError extends Error {
  override name = 'StoreError';
  readonly code = 'store-failed';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** Runs a store operation; whatever it throws comes out as a StoreError saying what was being done. */
export function storeCall<T>(what: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
