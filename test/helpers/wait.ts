/** Polls `fn` until it returns something other than undefined, or fails after `ms` naming `what`. */
export async function waitFor<T>(fn: () => Promise<T | undefined>, what: string, ms = 60_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
