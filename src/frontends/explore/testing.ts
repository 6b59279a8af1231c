/**
 * explore.test.ts's explorations, run in a worker thread. node's test runner tracks every async
 * resource of its thread to the test that made it (an async hook with a destroy callback, so each
 * promise is registered for destruction too); explore's hundreds of reruns make hundreds of
 * thousands of promises, and that tracking cost ≈ 15 % of their CPU (measured: one exploration
 * of 247 plans, under `node --test` and without). A worker thread has async hooks of its own, none;
 * the command and cucumber run there exactly as in `terminating explore`, and the test reads what
 * they printed and returned.
 */
import { Worker, parentPort } from 'node:worker_threads';
import { Writable } from 'node:stream';
import { path as TS_HOOK } from '../../../scripts/ts-hook';

/** A request to the worker and its answer. */
type Ask = { kind: 'explore'; args: string[] } | { kind: 'cucumber'; paths: string[] };
type Request = { id: number } & Ask;
type Answer = { id: number } & (
  | { ok: true; code?: number; success?: boolean; out: string; err: string }
  | { ok: false; message: string; exitCode?: number }
);

/** What an exploration printed and its exit code; a command error (bad input) is thrown, with its exitCode. */
export interface WorkerExploration {
  code: number;
  out: string;
  err: string;
}

export class ExploreWorker {
  private readonly worker: Worker;
  private next = 0;
  private readonly waiting = new Map<number, (a: Answer) => void>();

  constructor() {
    this.worker = new Worker(`require(${JSON.stringify(TS_HOOK)}); require(${JSON.stringify(__filename)}).serve();`, {
      eval: true,
    });
    this.worker.on('message', (a: Answer) => {
      this.waiting.get(a.id)?.(a);
      this.waiting.delete(a.id);
    });
    // An idle worker keeps no test process alive.
    this.worker.unref();
  }

  /** `terminating explore ARGS…`, as exploreCommand runs it. */
  async explore(args: string[]): Promise<WorkerExploration> {
    const a = await this.ask({ kind: 'explore', args });
    return { code: a.code!, out: a.out, err: a.err };
  }

  /** `cucumber-js PATHS -p summary`, as scripts/cucumber-in-process.ts runs it. */
  async cucumber(paths: string[]): Promise<{ success: boolean; output: string }> {
    const a = await this.ask({ kind: 'cucumber', paths });
    return { success: a.success!, output: a.out };
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }

  private ask(r: Ask): Promise<Extract<Answer, { ok: true }>> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (a) => {
        if (a.ok) return resolve(a);
        reject(Object.assign(new Error(a.message), a.exitCode === undefined ? {} : { exitCode: a.exitCode }));
      });
      this.worker.ref();
      this.worker.postMessage({ ...r, id } as Request);
    }).finally(() => {
      if (this.waiting.size === 0) this.worker.unref();
    }) as Promise<Extract<Answer, { ok: true }>>;
  }
}

/** A stream that keeps what is written to it. */
function sink(): Writable & { text: string } {
  const s = Object.assign(
    new Writable({
      write: (chunk: Buffer, _e, done) => {
        s.text += chunk.toString();
        done();
      },
    }),
    { text: '' },
  );
  return s;
}

/** The worker's side: runs each request in turn, answers what it printed. */
export function serve(): void {
  const port = parentPort!;
  let queue = Promise.resolve();
  port.on('message', (r: Request) => {
    queue = queue.then(async () => {
      const out = sink();
      const err = sink();
      try {
        if (r.kind === 'explore') {
          const { exploreCommand } = await import('./command');
          const code = await exploreCommand(r.args, out, err);
          port.postMessage({ id: r.id, ok: true, code, out: out.text, err: err.text } satisfies Answer);
        } else {
          const { runCucumber } = await import('../../../scripts/cucumber-in-process');
          const run = await runCucumber({ paths: r.paths });
          port.postMessage({ id: r.id, ok: true, success: run.success, out: run.output, err: '' } satisfies Answer);
        }
      } catch (e) {
        const exitCode = (e as { exitCode?: number }).exitCode;
        port.postMessage({ id: r.id, ok: false, message: (e as Error).message, exitCode } satisfies Answer);
      }
    });
  });
}
