/**
 * A fingerprint of everything the simulation decides, to compare before and after a change that
 * must not change behaviour (a speed-up):
 * - every scenario of features/: its steps' results and error messages and every attachment (its
 *   timeline.json: the events, the writes' patches, the assertion marks, the final objects),
 *   without durations;
 * - a mass deletion (300 pods, unevenly over 7 nodes): every timeline event (with its patch and
 *   outcome), the whole etcd revision history and the final etcd contents;
 * - a mass deletion behind services (bench/mass-deletion.ts's services case, small: 300 pods on 7
 *   nodes behind 10 services with clients): the same, plus the endpoint objects and every failed
 *   request, so that a speed-up of the endpoint controllers or kube-proxy shows any change.
 *
 *   node --require ./scripts/ts-hook.js bench/fingerprint.ts [out.json]
 *
 * prints one hash per scenario and for the mass deletion; run it before and after, then diff.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cluster, USER } from '../src/cluster/cluster';
import { massDeletion as massDeletionRun } from './mass-deletion';

const ROOT = resolve(__dirname, '..');

const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

interface JsonStep {
  keyword: string;
  name: string;
  result: { status: string; error_message?: string };
  embeddings?: { data: string; mime_type: string }[];
}
interface JsonFeature {
  uri: string;
  elements: { name: string; line: number; steps: JsonStep[] }[];
}

/**
 * An attachment's data as hashed: a timeline that quotes a file of this checkout (explain's
 * scenarios name the dump they read) hashes the same wherever the checkout is, so a worktree's
 * fingerprint compares with another's. Data that quotes no such path is hashed as it is.
 */
function withoutCheckout(base64: string): string {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  return text.includes(ROOT) ? text.split(ROOT).join('<checkout>') : base64;
}

function scenarios(): Record<string, string> {
  const out = join(mkdtempSync(join(tmpdir(), 'terminating-fingerprint-')), 'report.json');
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/@cucumber/cucumber/bin/cucumber.js'), '--profile', 'summary', '--format', `json:${out}`],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (r.status !== 0 && r.status !== 1) throw new Error(`cucumber failed:\n${r.stderr}`);
  const features = JSON.parse(readFileSync(out, 'utf8')) as JsonFeature[];
  const result: Record<string, string> = {};
  for (const f of features) {
    for (const e of f.elements) {
      const steps = e.steps.map((s) =>
        [
          s.keyword,
          s.name,
          s.result.status,
          s.result.error_message ?? '',
          ...(s.embeddings ?? []).map((m) => `${m.mime_type} ${withoutCheckout(m.data)}`),
        ].join('\n'),
      );
      result[`${f.uri}:${e.line} ${e.name}`] = hash(steps.join('\n'));
    }
  }
  return result;
}

function massDeletion(): Record<string, string> {
  const c = new Cluster();
  const nodes = 7;
  const pods = 300;
  for (let n = 0; n < nodes; n++) c.addNode(`node-${n}`);
  for (let i = 0; i < pods; i++) {
    const node = `node-${(i * i) % nodes}`;
    const r = c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: `pod-${i}` },
      spec: { nodeName: node, containers: [{ name: 'app' }] },
    });
    if (!r.ok) throw new Error(r.status.message);
    c.nodes.get(node)!.containerBehaviours.set(`${r.object.metadata.uid} app`, {
      sigterm: { kind: 'exits', afterMs: 500 + (i % 13) * 250 },
      preStopMs: i % 3 === 0 ? 700 : 0,
    });
  }
  c.advance(30_000);
  for (let i = 0; i < pods; i++)
    c.apiserver.delete(USER, 'pods', 'default', `pod-${i}`, i % 5 === 0 ? { gracePeriodSeconds: 2 } : {});
  c.settle();
  return recorded(c, 'mass', ['pods', 'nodes', 'events', 'leases']);
}

/** The timeline, etcd's whole history and the final contents of `resources`, hashed under `prefix`. */
function recorded(c: Cluster, prefix: string, resources: string[]): Record<string, string> {
  const timeline = c.timeline
    .all()
    .map((e) => JSON.stringify([e.seq, e.at, e.component, e.text, e.source, e.actor, e.requestId, e.outcome, e.patch]));
  const history = c.apiserver.etcd
    .fullHistory()
    .map((e) => JSON.stringify([e.revision, e.type, e.key, e.value, e.prev, e.requestId, e.at]));
  const final = resources.map((r) => JSON.stringify(c.apiserver.list(r as 'pods', undefined)));
  return {
    [`${prefix} timeline`]: hash(timeline.join('\n')),
    [`${prefix} etcd history`]: hash(history.join('\n')),
    [`${prefix} final state`]: hash(final.join('\n')),
    [`${prefix} events`]: String(timeline.length),
  };
}

/** bench/mass-deletion.ts's services case at a small size (300 pods, 7 nodes, 10 services with clients). */
function servicesMassDeletion(): Record<string, string> {
  const c = massDeletionRun(300, 7, 'full', () => {}, 10).cluster;
  const failed = c.network().clients.failures.map((f) => JSON.stringify([f.at, f.service, f.reason, f.pod ?? '']));
  return {
    ...recorded(c, 'services mass', ['pods', 'nodes', 'events', 'leases', 'services', 'endpointslices', 'endpoints']),
    'services mass failed requests': `${failed.length} ${hash(failed.join('\n'))}`,
  };
}

if (require.main === module) {
  const result = { ...massDeletion(), ...servicesMassDeletion(), ...scenarios() };
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (process.argv[2]) writeFileSync(process.argv[2], text);
  console.log(text);
}
