/**
 * The wall-time limits of a controller program run against a scenario's cluster
 * (controller-process.ts), in a module of their own: the step definitions name the step timeout
 * when cucumber loads them, and need not load the HTTP API (and protobufjs) for it in a run where
 * no scenario starts a program.
 */

/**
 * Where /proc cannot say whether the program is quiet (program-quiet.ts): wall time every
 * request, watch and watch line must have been still before it counts as quiet. A node process
 * answers a watch event within milliseconds on an idle machine, but may wait for a core on a
 * loaded one, and a clock that moved on meanwhile would change the timeline.
 */
export const CLIENT_QUIET_MS = 250;
/**
 * Wall time a client may stay busy before a step gives up on it (a client that polls never goes
 * quiet), not counting the time its main thread waited for a core.
 */
export const CLIENT_BUSY_LIMIT_MS = 30_000;
/**
 * A step that waits for the program, in wall time: only a backstop (the busy limit names the
 * program first), so large enough for a start and the instants after it on a machine loaded
 * many times over.
 */
export const CONTROLLER_STEP_TIMEOUT_MS = 20 * CLIENT_BUSY_LIMIT_MS;
