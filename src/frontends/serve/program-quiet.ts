import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Whether a controller program run as our child process (controller-process.ts) is quiet, read
 * from what Linux says about it rather than waited out on the wall clock: a program that has
 * nothing to read, nothing in flight towards the server and no timer about to fire does nothing
 * until the server writes to it again, however long one waits and however loaded the machine is.
 * This is the harness's own handshake, not Kubernetes behaviour.
 *
 * The facts, all readable by the user that started the program:
 * - every thread of the program sleeping (`/proc/PID/task/TID/stat`: state S): no thread is
 *   running or waiting for a core, the main one nor a worker (V8's, libuv's pool, a worker_thread
 *   whose result would wake the main one);
 * - its main thread blocked in the event loop's wait (`/proc/PID/syscall`: epoll_wait or
 *   epoll_pwait), whose fourth argument is the wait's timeout in ms: −1 when no timer is pending,
 *   else when the loop's next timer falls due. A timer due within TIMER_HORIZON_MS (a retry after
 *   50 ms, a poll) makes it busy: it is about to act on its own;
 * - nothing queued on the loopback connections between it and the server, either way
 *   (`/proc/net/tcp`: tx_queue, bytes sent and not yet acknowledged, and rx_queue, bytes received
 *   and not yet read, on each connection to or from the server's port; the listener's rx_queue is
 *   its connections not yet accepted);
 * - and no thread of it ran while those were read (`/proc/PID/task/TID/schedstat`: the count of
 *   time slices each thread ran is the same before and after), so the facts hold at one instant.
 * What the server itself still holds (a request being served, a response still in its buffers)
 * is the caller's to check (ControllerProcess.settle).
 *
 * Only IPv4 is read: the server listens on 127.0.0.1, so no connection to it appears in tcp6.
 * Where any of this cannot be read (not Linux, /proc hidden, another architecture's syscall
 * numbers), the answer is 'unknown' and the caller falls back to a wall-time quiet period.
 */
export type Quietness = 'quiet' | 'busy' | 'unknown';

/**
 * A timer due sooner than this (wall ms, as the program's event loop computed it when it began to
 * wait) means the program is about to act on its own: it is waited for. A later one (an idle
 * keep-alive socket's 5 s timeout, V8's memory reducer) is taken as no timer: what it does when it
 * fires lands whenever the wall clock has it.
 */
export const TIMER_HORIZON_MS = 1000;

/** The event loop's waits whose fourth argument is a timeout in ms, by architecture (asm/unistd.h). */
const EPOLL_WAITS: Readonly<Record<string, readonly number[]>> = {
  x64: [232 /* epoll_wait */, 281 /* epoll_pwait */],
  arm64: [22 /* epoll_pwait */],
};

/** The threads of a process: per thread id, its state letter and the time slices it has run. */
type Threads = Map<string, { state: string; slices: string }>;

function threads(pid: number): Threads | undefined {
  const all: Threads = new Map();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const schedstat = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
      all.set(tid, { state: stat.charAt(stat.lastIndexOf(')') + 2), slices: schedstat.split(' ')[2] ?? '' });
    }
  } catch {
    return undefined;
  }
  return all.size > 0 ? all : undefined;
}

/** The state letter of the program's main thread (`/proc/PID/stat`: R running or runnable, D in I/O, S asleep…); undefined when unreadable. */
export function mainThreadState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

/** Whether the main thread is running or waiting for a core (false also when unreadable: threads() then says so). */
function mainThreadRuns(pid: number): boolean {
  const state = mainThreadState(pid);
  return state !== undefined && state !== 'S';
}

/** The timeout (ms, −1 for none) of the event loop's wait the main thread is blocked in; busy when it is in none; undefined when unreadable. */
function loopTimeout(pid: number): number | 'busy' | undefined {
  const waits = EPOLL_WAITS[process.arch];
  if (!waits) return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/syscall`, 'utf8');
  } catch {
    return undefined;
  }
  // "running", "-1 SP PC" (blocked outside a system call), or "NR ARG1 … ARG6 SP PC".
  const fields = text.trim().split(' ');
  if (fields.length < 9 || !waits.includes(Number(fields[0]))) return 'busy';
  // The timeout is a C int: the register's low 32 bits, signed.
  return Number(BigInt(fields[4]) & 0xffffffffn) | 0;
}

/** The inodes of the sockets a process (a pid, or "self") holds open; undefined when unreadable. */
function socketInodes(pid: number | 'self', into: Set<string>): boolean {
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue; // closed meanwhile
      }
      if (target.startsWith('socket:[')) into.add(target.slice(8, -1));
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether anything is queued on a connection between the program `pid` and this process's server
 * on 127.0.0.1:`port` (or waits to be accepted); undefined when unreadable. Only sockets either
 * process holds count: on a busy machine, a closing connection of another process may linger on
 * the same port number.
 */
function queued(pid: number, port: number): boolean | undefined {
  const inodes = new Set<string>();
  if (!socketInodes(pid, inodes) || !socketInodes('self', inodes)) return undefined;
  let text: string;
  try {
    text = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const server = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of text.split('\n')) {
    // "sl local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode …"
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || (f[1] !== server && f[2] !== server) || !inodes.has(f[9])) continue;
    const [tx, rx] = f[4].split(':').map((h) => Number.parseInt(h, 16));
    const state = f[3];
    if (state === '0A') {
      // A listener: rx_queue is its connections not yet accepted (tx_queue its backlog).
      if (rx > 0) return true;
    } else if (state === '02' || state === '03' || tx > 0 || rx > 0) return true; // SYN_SENT, SYN_RECV: still connecting
  }
  return false;
}

const asleep = (all: Threads): boolean => [...all.values()].every((t) => t.state === 'S');

/** The longest a thread has waited for a core between two coreWaits() (ms; a thread new since counts from 0). */
export function longestCoreWait(before: Map<string, number>, after: Map<string, number>): number {
  let longest = 0;
  for (const [tid, ms] of after) longest = Math.max(longest, ms - (before.get(tid) ?? 0));
  return longest;
}

/** The threads' time slices, as one string: equal strings mean no thread ran in between. */
const ran = (all: Threads): string => [...all].map(([tid, t]) => `${tid}:${t.slices}`).join(' ');

/**
 * Reads whether the program `pid`, a client of the server on 127.0.0.1:`port`, is quiet (see the
 * module's comment). Reading /proc/net/tcp costs ≈ 1 ms of CPU (the kernel walks its whole
 * connection table), so it is skipped where it cannot tell anything new: when no thread of the
 * program has run since it was last found quiet and the server has sent and received nothing
 * since (`server`, the caller's count of its bytes and connections), nothing can have been
 * queued meanwhile.
 */
export class QuietReader {
  private lastQuiet?: { ran: string; server: string };
  /** Why the last read said busy (for a failure message: what the program was doing). */
  busyBecause = '';

  constructor(
    private readonly pid: number,
    private readonly port: number,
  ) {}

  read(server: string): Quietness {
    this.busyBecause = '';
    // The main thread alone first (one small read): while it runs, nothing else need be read.
    if (mainThreadRuns(this.pid)) return this.busy('a thread of it is running or waits for a core');
    const before = threads(this.pid);
    if (!before) return 'unknown';
    if (!asleep(before)) return this.busy('a thread of it is running or waits for a core');
    if (this.lastQuiet && this.lastQuiet.server === server && this.lastQuiet.ran === ran(before)) return 'quiet';
    this.lastQuiet = undefined;
    const timeout = loopTimeout(this.pid);
    if (timeout === undefined) return 'unknown';
    if (timeout === 'busy') return this.busy('its main thread is not waiting in its event loop');
    if (timeout >= 0 && timeout < TIMER_HORIZON_MS) return this.busy(`its event loop has a timer due in ${timeout} ms`);
    const inFlight = queued(this.pid, this.port);
    if (inFlight === undefined) return 'unknown';
    if (inFlight) return this.busy('bytes are queued on its connections to the server');
    const after = threads(this.pid);
    if (!after) return 'unknown';
    if (!asleep(after) || ran(after) !== ran(before)) return this.busy('it ran while it was read');
    this.lastQuiet = { ran: ran(after), server };
    return 'quiet';
  }

  /**
   * Per thread of the program, the wall ms it has spent runnable but waiting for a core since it
   * started (`/proc/PID/task/TID/schedstat`, second field, in ns); undefined when unreadable. On
   * a loaded machine that is the machine's delay, not the program's doing.
   */
  coreWaits(): Map<string, number> | undefined {
    const waits = new Map<string, number>();
    try {
      for (const tid of readdirSync(`/proc/${this.pid}/task`))
        waits.set(tid, Number(readFileSync(`/proc/${this.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e6);
    } catch {
      return undefined;
    }
    return waits;
  }

  private busy(because: string): Quietness {
    this.busyBecause = because;
    return 'busy';
  }
}
