import { describe, it } from 'node:test';
import { expect } from 'chai';
import { stringify } from 'yaml';
import { plainYaml } from './plain-yaml';

/** What the yaml package writes with toYaml's options: the text plainYaml must match byte for byte. */
const byPackage = (v: unknown): string => stringify(v, { aliasDuplicateObjects: false });

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings that sit on every edge of the package's choices: plain, quoted, folded, block, escaped. */
const STRINGS = [
  '',
  'web',
  'Running',
  'registry.k8s.io/pause:3.9',
  '2025-01-01T00:01:30Z',
  'kubernetes.io/hostname',
  '10.244.0.5',
  '100m',
  'null',
  'Null',
  '~',
  'true',
  'False',
  '12',
  '-3',
  '012',
  '0o17',
  '0x1F',
  '1.5',
  '.5',
  '1e3',
  '.inf',
  '-.Inf',
  '.nan',
  'x: y',
  'a:b',
  'ends:',
  'ends ',
  ' starts',
  '- item',
  '-',
  '?',
  '? q',
  '#hash',
  'a #b',
  'a#b',
  '&anchor',
  '*alias',
  '!tag',
  '|',
  '>',
  "it's",
  'say "hi"',
  'back\\slash',
  '%percent',
  '@at',
  '`tick',
  '[list]',
  '{map}',
  'a, b',
  '---',
  '--- doc',
  '...',
  'tab\there',
  'two\nlines',
  'trailing\n',
  'unicode é',
  'containers with unready status: [app]',
  '0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
  'containerd://9f2c4d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e',
  'a'.repeat(58),
  'a'.repeat(59),
  'a'.repeat(60),
  'a'.repeat(78),
  'a'.repeat(79),
  'a'.repeat(80),
  'word '.repeat(15).trim(),
  'word '.repeat(30).trim(),
];
const KEYS = [
  'name',
  'app.kubernetes.io/name',
  'x',
  'a-b_c.d',
  'true',
  '12',
  'a b',
  'k: v',
  '',
  '-',
  'long'.repeat(10),
];
const NUMBERS = [0, 1, -1, 30, 1.5, 0.1, 1e21, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53];

function value(next: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const r = next();
  if (depth > 4 || r < 0.45) {
    const s = next();
    if (s < 0.6) return pick(STRINGS);
    if (s < 0.8) return pick(NUMBERS);
    if (s < 0.9) return pick([true, false, null]);
    return pick([undefined, new Date(0)]);
  }
  const n = Math.floor(next() * 4);
  if (r < 0.7) {
    const map: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) map[pick(KEYS)] = value(next, depth + 1);
    return map;
  }
  return Array.from({ length: n }, () => value(next, depth + 1));
}

describe('plainYaml: the yaml package’s text, written directly', () => {
  it('writes a pod as the package does', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: {}, finalizers: [] },
      spec: {
        nodeName: 'node-1',
        terminationGracePeriodSeconds: 30,
        containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', ports: [{ containerPort: 80 }] }],
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 }],
      },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False', message: STRINGS.at(-11) }],
        containerStatuses: [
          { name: 'app', imageID: '', ready: true, state: { running: { startedAt: '2025-01-01T00:00:01Z' } } },
        ],
        nested: [[1, [2, []]], [{}], { a: [] }],
      },
    };
    expect(plainYaml(pod)).to.equal(byPackage(pod));
    expect(plainYaml({})).to.equal(byPackage({}));
  });

  it('matches the package on every string, number and key at several depths', () => {
    for (const s of [...STRINGS, ...NUMBERS, true, false, null])
      for (const v of [{ k: s }, { key: [s] }, { a: { bb: [{ ccc: s, d: s }] } }, { l: [[s]] }]) {
        const text = plainYaml(v);
        if (text !== undefined) expect(text, JSON.stringify(v)).to.equal(byPackage(v));
      }
    for (const k of KEYS) {
      const text = plainYaml({ [k]: 1 });
      if (text !== undefined) expect(text, k).to.equal(byPackage({ [k]: 1 }));
    }
  });

  it('matches the package on 3 000 generated objects, or leaves them to it', () => {
    let written = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const v = { root: value(random(seed), 0) };
      const text = plainYaml(v);
      if (text === undefined) continue;
      written++;
      expect(text, `seed ${seed}: ${JSON.stringify(v)}`).to.equal(byPackage(v));
    }
    // Most are written here: the test would pass vacuously if plainYaml gave every object up.
    expect(written).to.be.greaterThan(1000);
  });

  it('leaves to the package what it does not write: a class instance, an undefined list item, a key in quotes', () => {
    expect(plainYaml({ at: new Date(0) })).to.equal(undefined);
    expect(plainYaml({ list: [undefined] })).to.equal(undefined);
    expect(plainYaml({ 'a: b': 1 })).to.equal(undefined);
    expect(plainYaml(['top-level list'])).to.equal(undefined);
  });
});
