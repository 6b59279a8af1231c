/** A command cannot run as asked (bad usage, unusable input, a port in use): one line for the user, and its exit code. */
export class CommandError extends Error {
  constructor(
    message: string,
    /** 2 for bad usage (flags), 1 for anything else. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
