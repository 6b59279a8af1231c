// The types of `terminating`'s harness (src/frontends/harness.ts; src/frontends/harness.types.ts checks that they agree).

export interface StartClusterOptions {
  /** The Kubernetes release every component models: '1.NN' or 'v1.NN' (default: the project's default release). Any other release is refused. */
  kubernetes?: string;
  /** The nodes: their names, or how many (named node-1, node-2, …). Default: one node, node-1. */
  nodes?: readonly string[] | number;
}

export interface SettleResult {
  /** True when nothing is due within 10 virtual minutes; false when work still retries after one virtual hour. */
  settled: boolean;
  /** What keeps the cluster busy when it did not settle (stuck volumes, finalizers, crash loops, …), in words. */
  blockers: string[];
}

export interface SessionReportFiles {
  /** The report page (sequence diagram, timeline, objects). */
  html: string;
  /** The timeline as data (every event, every write's field changes). */
  data: string;
  /** The timeline as text. */
  text: string;
  /** The pods as they are now (YAML). */
  objects: string;
}

export interface TestCluster {
  /** Path of a kubeconfig for the cluster (kubectl, client-go, @kubernetes/client-node, the Python client read it). */
  readonly kubeconfig: string;
  /** The API server's URL (plain HTTP on 127.0.0.1; no authentication). */
  readonly url: string;
  /** The Kubernetes release it models, e.g. "v1.33". */
  readonly kubernetes: string;
  /** The cluster's virtual time: it stands still until advance() or settle() moves it. */
  now(): Date;
  /** Moves virtual time on by a duration ("30s", "1m30s", "250ms") or a number of milliseconds, running what falls due; resolves with the new time. */
  advance(duration: string | number): Promise<Date>;
  /** Runs the cluster until nothing is due within 10 virtual minutes (the scenario step "the cluster settles"). */
  settle(): Promise<SettleResult>;
  /** Writes the session report (index.html, timeline.txt, the timeline as JSON, final-objects.yaml) into `dir`. */
  report(dir: string): SessionReportFiles;
  /** Stops the server (open watches end cleanly) and removes the kubeconfig. */
  stop(): Promise<void>;
}

/** A bad option (an unknown release, a bad node name or duration): one message naming what to write instead. */
export declare class StartClusterError extends Error {
  readonly name: 'StartClusterError';
}

/** Starts a simulated cluster on a free port of 127.0.0.1, with the clock standing still until the test moves it. */
export declare function startCluster(options?: StartClusterOptions): Promise<TestCluster>;
