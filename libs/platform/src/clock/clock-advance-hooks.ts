/**
 * What runs when an operator moves the sandbox clock (`POST /platform/sandbox/clock`): work that
 * falls due with time (recurring charges) registers here, and the advance answers once that work
 * has run, so a sandbox caller sees the effect of the time it moved ("advance the clock, then read
 * the contract"). The periodic passes do the same work anyway; this only makes it prompt and
 * observable. A hook that fails is reported to `onError` and never undoes the advance.
 */
export class ClockAdvanceHooks {
  private readonly hooks: { name: string; run: (now: Date) => Promise<unknown> }[] = [];

  register(name: string, run: (now: Date) => Promise<unknown>): void {
    this.hooks.push({ name, run });
  }

  /** Runs every hook, one after another, in the order they registered. */
  async notify(now: Date, onError: (name: string, error: unknown) => void): Promise<void> {
    for (const hook of this.hooks) {
      try {
        await hook.run(now);
      } catch (error) {
        onError(hook.name, error);
      }
    }
  }
}
