/**
 * Generates src/frontends/server/protobuf-descriptors.json, the protobuf messages of the kinds the server
 * serves, from upstream's own data: the generated.proto of k8s.io/api and k8s.io/apimachinery
 * (field numbers and types) and the struct tags of their types.go (the JSON name, `omitempty`,
 * pointer fields and `,inline` embedding, which the .proto does not carry). No npm package ships
 * these files, so they are read from git checkouts of kubernetes/api and kubernetes/apimachinery at
 * one release tag; only the closure of the messages reachable from ROOTS is written, with no
 * comments.
 *
 *   node --require ./scripts/ts-hook.js scripts/protobuf-descriptors.ts API_REPO APIMACHINERY_REPO [TAG]
 *
 * (TAG defaults to v0.33.9, the k8s.io/api release of Kubernetes v1.33.9.)
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { builtinKinds } from '../src/apiserver/kinds';

export const OUTPUT = path.join(__dirname, '..', 'src', 'frontends', 'server', 'protobuf-descriptors.json');

/** Proto package → [repository, directory] of its generated.proto and Go types. */
const PACKAGES: Record<string, ['api' | 'apimachinery', string, string[]]> = {
  'k8s.io.api.core.v1': ['api', 'core/v1', ['types.go']],
  'k8s.io.api.apps.v1': ['api', 'apps/v1', ['types.go']],
  'k8s.io.api.batch.v1': ['api', 'batch/v1', ['types.go']],
  'k8s.io.api.coordination.v1': ['api', 'coordination/v1', ['types.go']],
  'k8s.io.api.events.v1': ['api', 'events/v1', ['types.go']],
  'k8s.io.api.policy.v1': ['api', 'policy/v1', ['types.go']],
  'k8s.io.api.discovery.v1': ['api', 'discovery/v1', ['types.go']],
  'k8s.io.api.authorization.v1': ['api', 'authorization/v1', ['types.go']],
  'k8s.io.api.authentication.v1': ['api', 'authentication/v1', ['types.go']],
  'k8s.io.api.autoscaling.v1': ['api', 'autoscaling/v1', ['types.go']],
  'k8s.io.api.admissionregistration.v1': ['api', 'admissionregistration/v1', ['types.go']],
  'k8s.io.api.storage.v1': ['api', 'storage/v1', ['types.go']],
  'k8s.io.api.networking.v1': ['api', 'networking/v1', ['types.go']],
  'k8s.io.apimachinery.pkg.apis.meta.v1': ['apimachinery', 'pkg/apis/meta/v1', ['types.go', 'watch.go']],
  'k8s.io.apimachinery.pkg.runtime': ['apimachinery', 'pkg/runtime', ['types.go']],
  'k8s.io.apimachinery.pkg.runtime.schema': ['apimachinery', 'pkg/runtime/schema', []],
  'k8s.io.apimachinery.pkg.api.resource': ['apimachinery', 'pkg/api/resource', []],
  'k8s.io.apimachinery.pkg.util.intstr': ['apimachinery', 'pkg/util/intstr', []],
};

/**
 * The messages the server reads or writes as whole bodies; everything they reach comes along:
 * each served kind's message and its List (named by its kind module, src/apiserver/kinds/), and
 * the bodies that are no stored kind (a binding, an eviction, the access reviews, a scale, meta/v1).
 */
const ROOTS = [
  ...builtinKinds().flatMap((k) =>
    [k.protobuf, ...(k.alsoServedAs ?? []).map((v) => v.protobuf)].flatMap((m) => (m ? [m, `${m}List`] : [])),
  ),
  'k8s.io.api.core.v1.Binding',
  'k8s.io.api.policy.v1.Eviction',
  'k8s.io.api.authorization.v1.SelfSubjectAccessReview',
  'k8s.io.api.authorization.v1.SelfSubjectRulesReview',
  'k8s.io.api.authentication.v1.SelfSubjectReview',
  'k8s.io.api.autoscaling.v1.Scale',
  'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Status',
  'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent',
  'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata',
  'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList',
  'k8s.io.apimachinery.pkg.runtime.Unknown',
];

/** One field as protobufjs's JSON descriptor takes it, with the JSON facts of its Go struct tag. */
export interface FieldDescriptor {
  type: string;
  id: number;
  rule?: 'repeated';
  keyType?: string;
  options?: {
    /** A non-pointer scalar tagged `omitempty`: its zero value is absent from the JSON form. */
    omitempty?: boolean;
    /** An embedded struct tagged `,inline`: its fields sit in the parent's JSON object. */
    inline?: boolean;
    /** The JSON name, where it differs from the proto field name. */
    json?: string;
  };
}

export interface MessageDescriptor {
  fields: Record<string, FieldDescriptor>;
  /** A Go named slice (`type Verbs []string`): the JSON form is the `items` array itself. */
  options?: { list?: boolean };
}

interface GoField {
  json: string;
  omitempty: boolean;
  inline: boolean;
  pointer: boolean;
}

const SCALARS = new Set([
  'string',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'double',
  'float',
  'bytes',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
]);

function show(repo: string, tag: string, file: string): string {
  return execFileSync('git', ['-C', repo, 'show', `${tag}:${file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The messages of one generated.proto: name → fields (proto2, as go-to-protobuf writes it). */
export function parseProto(text: string, pkg: string): Map<string, MessageDescriptor> {
  const messages = new Map<string, MessageDescriptor>();
  let current: MessageDescriptor | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const start = /^message (\w+) \{$/.exec(line);
    if (start) {
      current = { fields: {} };
      messages.set(`${pkg}.${start[1]}`, current);
      continue;
    }
    if (line === '}') {
      current = undefined;
      continue;
    }
    if (!current) continue;
    const map = /^map<(\w+), ?([\w.]+)> (\w+) = (\d+);$/.exec(line);
    if (map) {
      current.fields[map[3]] = { keyType: map[1], type: map[2], id: Number(map[4]) };
      continue;
    }
    const field = /^(optional|repeated) ([\w.]+) (\w+) = (\d+);$/.exec(line);
    if (field)
      current.fields[field[3]] = {
        type: field[2],
        id: Number(field[4]),
        ...(field[1] === 'repeated' ? { rule: 'repeated' as const } : {}),
      };
  }
  return messages;
}

/** The struct tags of one types.go: Go type name → proto field name → its JSON facts; and the named slice types. */
export function parseGoTypes(text: string): { structs: Map<string, Map<string, GoField>>; lists: Set<string> } {
  const structs = new Map<string, Map<string, GoField>>();
  const lists = new Set<string>();
  let current: Map<string, GoField> | undefined;
  for (const line of text.split('\n')) {
    const start = /^type (\w+) struct \{/.exec(line);
    if (start) {
      current = new Map();
      structs.set(start[1], current);
      continue;
    }
    const list = /^type (\w+) \[\]\w+$/.exec(line.trim());
    if (list) lists.add(list[1]);
    if (line.startsWith('}')) {
      current = undefined;
      continue;
    }
    if (!current) continue;
    const m = /^\t(\S+)(?:\s+(\S+))?\s+`([^`]*)`/.exec(line);
    if (!m) continue;
    const goType = m[2] ?? m[1];
    const tags = m[3];
    const proto = /protobuf:"[^"]*name=(\w+)/.exec(tags);
    const json = /json:"([^"]*)"/.exec(tags);
    if (!proto || !json) continue;
    const [jsonName, ...flags] = json[1].split(',');
    current.set(proto[1], {
      json: jsonName,
      omitempty: flags.includes('omitempty'),
      inline: flags.includes('inline'),
      pointer: goType.startsWith('*'),
    });
  }
  return { structs, lists };
}

/** Resolves a field's type, as written in the .proto of `pkg`, to a fully qualified message name (or a scalar). */
function qualify(type: string, pkg: string): string {
  if (SCALARS.has(type)) return type;
  return type.startsWith('.') ? type.slice(1) : `${pkg}.${type}`;
}

export function generate(apiRepo: string, apimachineryRepo: string, tag: string): object {
  const messages = new Map<string, MessageDescriptor>();
  const goFacts = new Map<string, { structs: Map<string, Map<string, GoField>>; lists: Set<string> }>();
  for (const [pkg, [repo, dir, goFiles]] of Object.entries(PACKAGES)) {
    const checkout = repo === 'api' ? apiRepo : apimachineryRepo;
    for (const [name, m] of parseProto(show(checkout, tag, `${dir}/generated.proto`), pkg)) messages.set(name, m);
    const facts = { structs: new Map<string, Map<string, GoField>>(), lists: new Set<string>() };
    for (const file of goFiles) {
      const parsed = parseGoTypes(show(checkout, tag, `${dir}/${file}`));
      for (const [k, v] of parsed.structs) facts.structs.set(k, v);
      for (const l of parsed.lists) facts.lists.add(l);
    }
    goFacts.set(pkg, facts);
  }

  // The closure of the roots, each field's type made fully qualified and its Go facts attached.
  const out = new Map<string, MessageDescriptor>();
  const queue = [...ROOTS];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (out.has(name)) continue;
    const m = messages.get(name);
    if (!m) throw new Error(`no message ${name} in the generated.proto files read`);
    const pkg = name.slice(0, name.lastIndexOf('.'));
    const short = name.slice(pkg.length + 1);
    const facts = goFacts.get(pkg);
    const go = facts?.structs.get(short);
    const fields: Record<string, FieldDescriptor> = {};
    for (const [fieldName, f] of Object.entries(m.fields)) {
      const type = qualify(f.type, pkg);
      const g = go?.get(fieldName);
      const options: FieldDescriptor['options'] = {};
      if (g && SCALARS.has(type) && !f.rule && !f.keyType && !g.pointer && g.omitempty) options.omitempty = true;
      if (g?.inline) options.inline = true;
      if (g && !g.inline && g.json !== fieldName) options.json = g.json;
      fields[fieldName] = {
        ...f,
        type: SCALARS.has(type) ? type : `.${type}`,
        ...(Object.keys(options).length ? { options } : {}),
      };
      if (!SCALARS.has(type)) queue.push(type);
    }
    out.set(name, { fields, ...(facts?.lists.has(short) ? { options: { list: true } } : {}) });
  }

  // protobufjs's JSON form: namespaces nested by package segment.
  const root: { nested: Record<string, unknown> } = { nested: {} };
  for (const name of [...out.keys()].sort()) {
    const parts = name.split('.');
    let ns = root;
    for (const part of parts.slice(0, -1)) {
      ns.nested[part] ??= { nested: {} };
      ns = ns.nested[part] as { nested: Record<string, unknown> };
    }
    ns.nested[parts.at(-1)!] = out.get(name);
  }
  return {
    source: `k8s.io/api and k8s.io/apimachinery ${tag}: generated.proto and types.go (scripts/protobuf-descriptors.ts)`,
    ...root,
  };
}

if (require.main === module) {
  const [apiRepo, apimachineryRepo, tag = 'v0.33.9'] = process.argv.slice(2);
  if (!apiRepo || !apimachineryRepo) {
    console.error('usage: protobuf-descriptors.ts API_REPO APIMACHINERY_REPO [TAG]');
    process.exit(2);
  }
  writeFileSync(OUTPUT, JSON.stringify(generate(apiRepo, apimachineryRepo, tag)) + '\n');
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
}
