/**
 * Reads until `done` holds (or `timeoutMs` passes) and returns the last read: for lists, search,
 * summary and export, which show a write a moment after it answered (docs/api.md, "Consistency").
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
