import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RELEASE, Release, SUPPORTED_MINORS } from '../../foundation/release';
import { SERVED_GROUPS, SERVED_RESOURCES } from '../resources';
import { definitionName, SCHEMA_ROOTS, schemaDefinitions } from '../schemas';
import { definitionsForRelease, hasSchema } from '../strict-decoding';
import { BUILTIN_KINDS, builtinKind, printerOf } from '.';
import type { BuiltinKind } from './kind';

const kinds = BUILTIN_KINDS as readonly BuiltinKind[];
const ctx = (release: Release) => ({ release, now: () => 0, validateName: () => [] });

describe('the kind registry', () => {
  it('declares each resource once', () => {
    const resources = kinds.map((k) => k.resource);
    assert.deepEqual(resources, [...new Set(resources)]);
  });

  for (const release of [Release.parse('1.26'), DEFAULT_RELEASE]) {
    it(`builds strategies that agree with each kind's declaration (v1.${release.minor})`, () => {
      for (const k of kinds) {
        const { main, status, finalize } = k.strategies(ctx(release));
        const apiVersion = k.group === '' ? k.version : `${k.group}/${k.version}`;
        assert.equal(main.kind, k.kind, k.resource);
        assert.equal(main.apiVersion, apiVersion, k.resource);
        assert.equal(main.resource, k.resource, k.resource);
        assert.equal(main.namespaced, k.namespaced, k.resource);
        assert.equal(main.etcdPrefix, k.etcdPrefix ?? k.resource, k.resource);
        // A status strategy only where a status subresource is served (the finalize one likewise);
        // the kinds below serve one that writes through their main strategy (no status strategy
        // modelled: nothing here writes their status).
        const statusLess = ['replicationcontrollers', 'services', 'cronjobs', 'ingresses'].includes(k.resource);
        assert.equal(status !== undefined, 'status' in k.subresources && !statusLess, `${k.resource}/status`);
        assert.equal(finalize !== undefined, 'finalize' in k.subresources, `${k.resource}/finalize`);
      }
    });
  }

  it('serves every kind at its group/version, and the second versions after them', () => {
    assert.deepEqual(
      SERVED_RESOURCES.filter((r) => !r.toServed).map((r) => `${r.group}/${r.version}/${r.resource}`),
      kinds.map((k) => `${k.group}/${k.version}/${k.resource}`),
    );
    const events = SERVED_RESOURCES.find((r) => r.group === 'events.k8s.io');
    assert.equal(events?.storage, 'events');
    assert.ok(events?.toServed && events.fromServed);
  });

  it('finds each OpenAPI model a kind names among the definitions built', () => {
    const definitions = schemaDefinitions();
    assert.ok(SCHEMA_ROOTS.length > 20);
    for (const root of SCHEMA_ROOTS) assert.ok(definitions[definitionName(root)], root);
  });

  // R110 — no kind is served without its schema: strict decoding, `kubectl explain` and the
  // field manager all read it, so a kind (or a release serving a new one) without one would take
  // typos silently (issue 30: MutatingAdmissionPolicy, served from v1.36, had none).
  it('has a described schema, with metadata, for every kind each release serves', () => {
    const missing: string[] = [];
    for (const minor of SUPPORTED_MINORS) {
      const release = Release.of(minor);
      const defs = definitionsForRelease(minor);
      for (const k of kinds) {
        if (k.served && !k.served(release)) continue;
        for (const gv of [{ group: k.group, version: k.version }, ...(k.alsoServedAs ?? [])]) {
          const gvk = { group: gv.group, version: gv.version, kind: k.kind };
          const def = Object.values(defs).find((d) =>
            d['x-kubernetes-group-version-kind']?.some(
              (g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind,
            ),
          );
          if (!hasSchema(gvk, minor) || !def?.description || !def.properties?.metadata)
            missing.push(`v1.${minor} ${gv.group || 'core'}/${gv.version} ${k.kind}`);
        }
      }
    }
    assert.deepEqual(missing, [], 'name its schema in the kind module (openapi) and build it in schemas.ts');
  });

  // What a kind of a new group needs beyond its module (the PriorityClass trial, issue 29): its
  // group in the /apis order, and its OpenAPI models mapped to that group.
  it("lists every kind's group among the served groups, and names its OpenAPI definition in that group", () => {
    for (const k of kinds) {
      if (k.group !== '')
        assert.ok(SERVED_GROUPS.includes(k.group), `${k.group}: add it to SERVED_GROUPS (resources.ts)`);
      if (!k.openapi) continue;
      const group = k.group === '' ? 'core' : k.group.replace(/\.k8s\.io$/, '');
      assert.match(
        definitionName(k.openapi),
        new RegExp(`\\.${group.replace(/\./g, '\\.')}\\.${k.version}\\.${k.kind}$`),
        `${k.openapi}: map its models to ${k.group || 'core'} in schemas.ts`,
      );
    }
  });

  it('looks kinds and printers up by resource', () => {
    assert.equal(builtinKind('pods')?.kind, 'Pod');
    assert.equal(builtinKind('widgets.example.com'), undefined);
    assert.equal(printerOf('pods')?.columns[0].name, 'Name');
    assert.equal(printerOf('cronjobs'), undefined);
  });
});
