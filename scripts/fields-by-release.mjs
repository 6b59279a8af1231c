#!/usr/bin/env node
// Regenerates src/apiserver/fields-by-release.json: for each struct field of the served API
// groups whose presence differs between releases, the first and last minor release (1.26–1.36)
// whose k8s.io/api types.go declares it (its json tag). Read from a clone of kubernetes/api:
//   node scripts/fields-by-release.mjs /path/to/kubernetes/api/.git > src/apiserver/fields-by-release.json
// With --types it writes instead src/apiserver/types-by-release.json: for each of those fields that
// a v1.34 server does not serve, its
// Go type, its comment (the text upstream's OpenAPI description is made of) and its list/map
// markers, as the last release declaring it has them, and the same for every struct of the
// package those types reach, and the package's named scalar types (`type X string`). The served
// schemas (src/apiserver/schemas.ts) add from it what the client-node models (v1.34) lack. Its
// `named` lists every field typed by a named scalar (`[]PersistentVolumeAccessMode`), which strict
// decoding's type errors name (src/apiserver/strict-decoding.ts).
import { execFileSync } from 'node:child_process';

const gitDir = process.argv[2];
const TYPES = process.argv.includes('--types');
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
const parsed = new Map(); // `${minor} ${prefix}` -> { structs: {Name: {field: {go, doc, markers}}}, scalars: {Name: underlying}, docs: {Name: text} }
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
    const structs = {};
    const scalars = {};
    const docs = {};
    parsed.set(`${minor} ${prefix}`, { structs, scalars, docs });
    let comment = [];
    let typeComment = []; // the comment right above a type: its OpenAPI description
    for (const line of text.split('\n')) {
      const open = /^type (\w+) struct \{/.exec(line);
      if (open) {
        struct = open[1];
        structs[struct] = {};
        const doc = describe('', typeComment, true).doc;
        if (doc) docs[struct] = doc;
        comment = [];
        continue;
      }
      const top = /^\/\/ ?(.*)$/.exec(line);
      typeComment = top ? [...typeComment, top[1]] : [];
      const scalar = /^type (\w+) (string|int32|int64|bool)\b/.exec(line);
      if (scalar) scalars[scalar[1]] = scalar[2];
      if (line.startsWith('}')) {
        struct = undefined;
        continue;
      }
      if (!struct) continue;
      const c = /^\t\/\/ ?(.*)$/.exec(line);
      if (c) {
        comment.push(c[1]);
        continue;
      }
      // An embedded field with a json name (`metav1.ObjectMeta \`json:"metadata…"\``, its type
      // being its name): the struct of a kind newer than the client-node models needs it
      // (schemas.ts); its presence is left out of fields-by-release.json, which lists only what
      // the types declare by name (a kind's metadata is served with the kind).
      const embedded = /^\t(\w+\.\w+)\s+`json:"([A-Za-z0-9]+)[,"]/.exec(line);
      if (embedded) {
        structs[struct][embedded[2]] = describe(embedded[1], comment, /omitempty/.test(line));
        comment = [];
        continue;
      }
      const tag = /^\t\w+\s+.*`json:"([A-Za-z0-9]+)[,"]/.exec(line);
      const field = /^\t\w+\s+(\S+)\s+`/.exec(line);
      if (tag && field) structs[struct][tag[1]] = describe(field[1], comment, /omitempty/.test(line), line);
      comment = [];
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
/**
 * A field's Go type, its comment without markers (lines joined as the OpenAPI generator does) and
 * its markers, with the patch strategy and merge key of its struct tag (`patchStrategy:"merge"
 * patchMergeKey:"name"`, which the OpenAPI generator turns into x-kubernetes-patch-…).
 */
function describe(go, comment, omitempty, line = '') {
  const markers = {};
  const strategy = /patchStrategy:"([^"]+)"/.exec(line);
  if (strategy) markers.patchStrategy = strategy[1];
  const mergeKey = /patchMergeKey:"([^"]+)"/.exec(line);
  if (mergeKey) markers.patchMergeKey = mergeKey[1];
  const text = [];
  for (const line of comment) {
    const m = /^\+(listType|listMapKey|mapType|structType)=(\S+)/.exec(line);
    if (m) markers[m[1]] = m[1] === 'listMapKey' ? [...(markers.listMapKey ?? []), m[2]] : m[2];
    else if (!line.startsWith('+')) text.push(line);
  }
  const doc = text
    .join('\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
  return { go, doc, ...(Object.keys(markers).length ? { markers } : {}), ...(omitempty ? {} : { required: true }) };
}

if (TYPES) {
  // The varying fields' types as their last release declares them, and the structs they reach.
  const fields = {};
  const structs = {};
  const scalars = {};
  const docs = {};
  const reach = (go, minor, prefix) => {
    const name = /(\w+)$/.exec(go)?.[1];
    if (!name || go.includes('.')) return; // another package's type (metav1, resource): schemas.ts knows them
    const pkg = parsed.get(`${minor} ${prefix}`);
    if (pkg.scalars[name]) scalars[`${prefix}.${name}`] = pkg.scalars[name];
    const key = `${prefix}.${name}`;
    const map = /^map\[(\w+)\]/.exec(go);
    if (map && pkg.scalars[map[1]]) scalars[`${prefix}.${map[1]}`] = pkg.scalars[map[1]];
    if (!pkg.structs[name] || structs[key]) return;
    structs[key] = pkg.structs[name];
    if (pkg.docs[name]) docs[key] = pkg.docs[name];
    for (const f of Object.values(pkg.structs[name])) reach(f.go, minor, prefix);
  };
  // Only the fields a v1.34 server does not serve: the client-node models (spec v1.34.0) have the rest.
  const MODELS = 34;
  for (const [def, byField] of Object.entries(out)) {
    const prefix = def.slice(0, def.lastIndexOf('.'));
    const struct = def.slice(prefix.length + 1);
    for (const [name, range] of Object.entries(byField)) {
      const minor = range[1] ?? MINORS.at(-1);
      if (range[0] <= MODELS && minor >= MODELS) continue;
      const f = parsed.get(`${minor} ${prefix}`)?.structs[struct]?.[name];
      if (!f) continue;
      (fields[def] ??= {})[name] = f;
      reach(f.go, minor, prefix);
    }
  }
  // Every field whose Go type is (a pointer to, or a slice of) a named scalar type of its package:
  // encoding/json names that type in a type error (`[]v1.PersistentVolumeAccessMode`, not `[]string`).
  const named = {};
  for (const minor of MINORS) {
    for (const prefix of Object.values(DIRS)) {
      const pkg = parsed.get(`${minor} ${prefix}`);
      if (!pkg) continue;
      for (const [struct, byField] of Object.entries(pkg.structs)) {
        for (const [name, f] of Object.entries(byField)) {
          const m = /^(\[\])?\*?(\w+)$/.exec(f.go);
          if (m && pkg.scalars[m[2]]) (named[`${prefix}.${struct}`] ??= {})[name] = `${m[1] ?? ''}v1.${m[2]}`;
        }
      }
    }
  }
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  process.stdout.write(
    `${JSON.stringify({ fields: sorted(fields), structs: sorted(structs), scalars: sorted(scalars), named: sorted(named), docs: sorted(docs) }, null, 1)}\n`,
  );
  process.exit(0);
}

process.stdout.write(
  `{\n${Object.entries(out)
    .map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n')}\n}\n`,
);
