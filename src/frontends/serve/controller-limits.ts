/**
 * The wall-time limits of a controller program run against a scenario's cluster
 * (controller-process.ts), in a module of their own: the step definitions name the step timeout
 * when cucumber loads them, and need not load the HTTP API (and protobufjs) for it in a run where
 * no scenario starts a program.
 */

/**
 * Wall time every request, watch and watch line must have been still before the client counts as
 * quiet: a node process answers a watch event within milliseconds on an idle machine, but may
 * wait for a core on a loaded one, and a clock that moved on meanwhile would change the timeline.
 */
export const CLIENT_QUIET_MS = 250;
/** Wall time a client may stay busy before a step gives up on it (a client that polls never goes quiet). */
export const CLIENT_BUSY_LIMIT_MS = 30_000;
/** A step that waits for the program: the busy limit for its start, then room for the instants after it. */
export const CONTROLLER_STEP_TIMEOUT_MS = 4 * CLIENT_BUSY_LIMIT_MS;
