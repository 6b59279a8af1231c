/**
 * Generates src/frontends/server/openapi-v2-descriptors.json, the protobuf messages of gnostic's OpenAPI v2
 * model (package `openapi.v2`: Document, Schema, NamedSchema, Any, …), from upstream's own .proto:
 * `openapiv2/OpenAPIv2.proto` of google/gnostic-models, read from a git checkout at one release
 * tag and parsed with protobufjs (proto3, with its oneofs), field names kept as written. The one
 * import, google/protobuf/any.proto, comes from protobufjs's copy of the well-known types. No
 * comments are written.
 *
 *   node --require ./scripts/ts-hook.js scripts/openapi-v2-descriptors.ts GNOSTIC_MODELS_REPO [TAG]
 *
 * (TAG defaults to v0.6.9, the gnostic-models release k8s.io/client-go v0.33 requires; the messages
 * are those of github.com/google/gnostic v0.5.7, which client-go v0.26 decodes with.)
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { common, parse, Root } from 'protobufjs';

export const OUTPUT = path.join(__dirname, '..', 'src', 'frontends', 'server', 'openapi-v2-descriptors.json');

/** protobufjs's JSON form of an OpenAPIv2.proto text, with google.protobuf.Any beside it. */
export function descriptors(proto: string): { nested: Record<string, unknown> } {
  const root = Root.fromJSON(common.get('google/protobuf/any.proto') as Parameters<typeof Root.fromJSON>[0]);
  const parsed = parse(proto, root, { keepCase: true, alternateCommentMode: false });
  if (parsed.package !== 'openapi.v2')
    throw new Error(`expected package openapi.v2, the .proto declares ${parsed.package ?? 'none'}`);
  root.resolveAll();
  const json = root.toJSON({ keepComments: false }) as { nested: Record<string, unknown> };
  // The .proto's language options (java_package, go_package, …) say nothing the encoder needs.
  const v2 = (json.nested.openapi as { nested: { v2: { options?: unknown } } }).nested.v2;
  delete v2.options;
  return json;
}

export function generate(repo: string, tag: string): object {
  const proto = execFileSync('git', ['-C', repo, 'show', `${tag}:openapiv2/OpenAPIv2.proto`], { encoding: 'utf8' });
  return {
    source: `google/gnostic-models ${tag}: openapiv2/OpenAPIv2.proto (scripts/openapi-v2-descriptors.ts)`,
    ...descriptors(proto),
  };
}

if (require.main === module) {
  const [repo, tag = 'v0.6.9'] = process.argv.slice(2);
  if (!repo) {
    console.error('usage: openapi-v2-descriptors.ts GNOSTIC_MODELS_REPO [TAG]');
    process.exit(2);
  }
  writeFileSync(OUTPUT, JSON.stringify(generate(repo, tag)) + '\n');
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
}
