#!/usr/bin/env node
// Regenerates src/apiserver/fields-by-release.json: for each struct field of the served API
// groups whose presence differs between releases, the first and last minor release (1.26–1.36)
// whose k8s.io/api types.go declares it (its json tag). Read from a clone of kubernetes/api:
//   node scripts/fields-by-release.mjs /path/to/kubernetes/api/.git > src/apiserver/fields-by-release.json
// Only names of fields are taken (data), no upstream prose.
import { execFileSync } from 'node:child_process';

const gitDir = process.argv[2];
if (!gitDir) throw new Error('usage: fields-by-release.mjs GIT_DIR_OF_KUBERNETES_API');
const DIRS = {
  'core/v1': 'io.k8s.api.core.v1',
  'apps/v1': 'io.k8s.api.apps.v1',
  'batch/v1': 'io.k8s.api.batch.v1',
  'policy/v1': 'io.k8s.api.policy.v1',
  'discovery/v1': 'io.k8s.api.discovery.v1',
  'coordination/v1': 'io.k8s.api.coordination.v1',
  'events/v1': 'io.k8s.api.events.v1',
  'admissionregistration/v1': 'io.k8s.api.admissionregistration.v1',
  'storage/v1': 'io.k8s.api.storage.v1',
};
const MINORS = [26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36];
const present = new Map(); // "def.field" -> Set(minor)
for (const minor of MINORS) {
  for (const [dir, prefix] of Object.entries(DIRS)) {
    let text;
    try {
      text = execFileSync('git', ['--git-dir', gitDir, 'show', `v0.${minor}.0:${dir}/types.go`], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
    } catch {
      continue;
    }
    let struct;
    for (const line of text.split('\n')) {
      const open = /^type (\w+) struct \{/.exec(line);
      if (open) {
        struct = open[1];
        continue;
      }
      if (line.startsWith('}')) {
        struct = undefined;
        continue;
      }
      if (!struct) continue;
      const tag = /^\t\w+\s+.*`json:"([A-Za-z0-9]+)[,"]/.exec(line);
      if (!tag) continue;
      const key = `${prefix}.${struct}.${tag[1]}`;
      if (!present.has(key)) present.set(key, new Set());
      present.get(key).add(minor);
    }
  }
}
// Types renamed between releases, new name → old name: a field of the new type was served under
// the old one before (PersistentVolumeClaimSpec.resources was a ResourceRequirements until v0.28
// made it a VolumeResourceRequirements), so it is not new in the release the new type appears.
const RENAMED = { 'io.k8s.api.core.v1.VolumeResourceRequirements': 'io.k8s.api.core.v1.ResourceRequirements' };
for (const [renamed, earlier] of Object.entries(RENAMED)) {
  for (const [key, minors] of present) {
    if (!key.startsWith(`${renamed}.`)) continue;
    const before = present.get(`${earlier}${key.slice(renamed.length)}`) ?? new Set();
    for (const minor of before) if (!MINORS.some((m) => m <= minor && present.get(key)?.has(m))) minors.add(minor);
  }
}
const out = {};
for (const [key, minors] of [...present].sort(([a], [b]) => a.localeCompare(b))) {
  const first = Math.min(...minors);
  const last = Math.max(...minors);
  if (first === MINORS[0] && last === MINORS.at(-1)) continue;
  const dot = key.lastIndexOf('.');
  (out[key.slice(0, dot)] ??= {})[key.slice(dot + 1)] = last === MINORS.at(-1) ? [first] : [first, last];
}
process.stdout.write(
  `{\n${Object.entries(out)
    .map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n')}\n}\n`,
);
