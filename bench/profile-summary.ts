/**
 * Where a profiled run's time and memory went, by source file: what `BENCH_PROFILE=1 npm run bench`
 * prints beside each profile it writes (the profiles themselves open in Chrome DevTools'
 * Performance and Memory panels, or in speedscope).
 *
 * - A CPU profile (`node --cpu-prof`, V8's sampling profiler): the main thread's self time per
 *   file. V8's own entries — `(garbage collector)`, `(program)`, `(idle)` — stay apart; a package
 *   counts as one file (`node_modules/NAME`), node's own modules as `node:internal`.
 * - A heap profile (`node --heap-prof`, V8's sampling heap profiler): the bytes still live when the
 *   process exited, per file of the function that allocated them.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of V8's .cpuprofile this reads (Chrome DevTools protocol Profiler.Profile). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The parts of V8's .heapprofile this reads (HeapProfiler.SamplingHeapProfile). */
export interface HeapProfile {
  head: HeapProfileNode;
}
interface HeapProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: HeapProfileNode[];
}

export interface Share {
  /** A project file relative to the root, `node_modules/NAME`, `node:internal`, or V8's `(garbage collector)` and the like. */
  file: string;
  /** Milliseconds (CPU) or megabytes (heap). */
  amount: number;
  /** Of the whole profile, 0–1. */
  share: number;
}

export interface ProfileSummary {
  /** Milliseconds sampled (CPU) or megabytes live (heap). */
  total: number;
  /** The largest contributors, largest first. */
  top: Share[];
}

/** The file a profile's call frame belongs to, as the summary names it. */
export function fileOf(url: string, functionName: string, root: string): string {
  if (url === '') return `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  if (url.startsWith('node:')) return 'node:internal';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return `node_modules/${pkg[1]}`;
  return path.startsWith('/') ? relative(root, path) : path;
}

/** The main thread's self time by file (`(idle)` left out of the total: the thread was waiting). */
export function summariseCpuProfile(profile: CpuProfile, root: string, top = 10): ProfileSummary {
  const fileOfNode = new Map(profile.nodes.map((n) => [n.id, fileOf(n.callFrame.url, n.callFrame.functionName, root)]));
  const micros = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const file = fileOfNode.get(profile.samples[i]) ?? '(unknown)';
    if (file === '(idle)') continue;
    micros.set(file, (micros.get(file) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return shares(micros, 1000, top);
}

/** The bytes live at exit by the file of the function that allocated them. */
export function summariseHeapProfile(profile: HeapProfile, root: string, top = 10): ProfileSummary {
  const bytes = new Map<string, number>();
  const walk = (node: HeapProfileNode): void => {
    if (node.selfSize > 0) {
      const file = fileOf(node.callFrame.url, node.callFrame.functionName, root);
      bytes.set(file, (bytes.get(file) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return shares(bytes, 1024 * 1024, top);
}

function shares(amounts: Map<string, number>, unit: number, top: number): ProfileSummary {
  let total = 0;
  for (const v of amounts.values()) total += v;
  const sorted = [...amounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    total: total / unit,
    top: sorted.slice(0, top).map(([file, v]) => ({ file, amount: v / unit, share: total > 0 ? v / total : 0 })),
  };
}

/** One line: `GC 24 %, src/apiserver/etcd.ts 8 %, …` — the first `n` contributors. */
export function describeSummary(summary: ProfileSummary, n = 6): string {
  return summary.top
    .slice(0, n)
    .map((s) => `${s.file === '(garbage collector)' ? 'GC' : s.file} ${Math.round(s.share * 100)} %`)
    .join(', ');
}
