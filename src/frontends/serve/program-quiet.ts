import { readdirSync, readFileSync } from 'node:fs';

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

/** Whether anything is queued on a connection to or from 127.0.0.1:`port` (or waits to be accepted); undefined when unreadable. */
function queued(port: number): boolean | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const server = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of text.split('\n')) {
    // "sl local_address rem_address st tx_queue:rx_queue …"
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || (f[1] !== server && f[2] !== server)) continue;
    const [tx, rx] = f[4].split(':').map((h) => Number.parseInt(h, 16));
    const state = f[3];
    if (state === '0A') {
      // A listener: rx_queue is its connections not yet accepted (tx_queue its backlog).
      if (rx > 0) return true;
    } else if (state === '02' || state === '03' || tx > 0 || rx > 0) return true; // SYN_SENT, SYN_RECV: still connecting
  }
  return false;
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

  constructor(
    private readonly pid: number,
    private readonly port: number,
  ) {}

  read(server: string): Quietness {
    const before = threads(this.pid);
    if (!before) return 'unknown';
    for (const t of before.values()) if (t.state !== 'S') return 'busy';
    if (this.lastQuiet && this.lastQuiet.server === server && this.lastQuiet.ran === ran(before)) return 'quiet';
    this.lastQuiet = undefined;
    const timeout = loopTimeout(this.pid);
    if (timeout === undefined) return 'unknown';
    if (timeout === 'busy' || (timeout >= 0 && timeout < TIMER_HORIZON_MS)) return 'busy';
    const inFlight = queued(this.port);
    if (inFlight === undefined) return 'unknown';
    if (inFlight) return 'busy';
    const after = threads(this.pid);
    if (!after) return 'unknown';
    for (const t of after.values()) if (t.state !== 'S') return 'busy';
    if (ran(after) !== ran(before)) return 'busy';
    this.lastQuiet = { ran: ran(after), server };
    return 'quiet';
  }
}
