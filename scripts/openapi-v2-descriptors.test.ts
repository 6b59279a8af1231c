import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { descriptors, OUTPUT } from './openapi-v2-descriptors';

describe('scripts/openapi-v2-descriptors.ts (R100)', () => {
  it('parses a proto3 OpenAPIv2.proto with its oneofs, field names as written, google.protobuf.Any beside it', () => {
    const proto = [
      'syntax = "proto3";',
      'package openapi.v2;',
      'import "google/protobuf/any.proto";',
      'option go_package = "github.com/google/gnostic-models/openapiv2;openapi_v2";',
      '// Any in the file is a YAML value.',
      'message Any { google.protobuf.Any value = 1; string yaml = 2; }',
      'message AdditionalPropertiesItem { oneof oneof { Schema schema = 1; bool boolean = 2; } }',
      'message Schema { string _ref = 1; repeated NamedAny vendor_extension = 31; }',
      'message NamedAny { string name = 1; Any value = 2; }',
    ].join('\n');
    const json = descriptors(proto) as {
      nested: { openapi: { nested: { v2: { options?: unknown; nested: Record<string, unknown> } } }; google: unknown };
    };
    const v2 = json.nested.openapi.nested.v2;
    expect(v2.options).to.equal(undefined);
    expect(v2.nested.AdditionalPropertiesItem).to.deep.equal({
      oneofs: { oneof: { oneof: ['schema', 'boolean'] } },
      fields: { schema: { type: 'Schema', id: 1 }, boolean: { type: 'bool', id: 2 } },
    });
    expect(v2.nested.Schema).to.deep.equal({
      fields: { _ref: { type: 'string', id: 1 }, vendor_extension: { rule: 'repeated', type: 'NamedAny', id: 31 } },
    });
    expect(json.nested.google).to.deep.equal({
      nested: {
        protobuf: {
          nested: { Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } } },
        },
      },
    });
    expect(() => descriptors('syntax = "proto3";\npackage openapi.v3;\nmessage X {}')).to.throw(
      'expected package openapi.v2, the .proto declares openapi.v3',
    );
  });

  it("the committed descriptors are gnostic-models' Document and Schema, field for field", () => {
    const d = JSON.parse(readFileSync(OUTPUT, 'utf8'));
    const v2 = d.nested.openapi.nested.v2.nested;
    expect(d.source).to.match(/^google\/gnostic-models v0\.6\.9: openapiv2\/OpenAPIv2\.proto/);
    expect(v2.Document.fields.paths).to.deep.equal({ type: 'Paths', id: 8 });
    expect(v2.Document.fields.definitions).to.deep.equal({ type: 'Definitions', id: 9 });
    expect(v2.Schema.fields.vendor_extension).to.deep.equal({ rule: 'repeated', type: 'NamedAny', id: 31 });
    expect(v2.Paths.fields).to.deep.equal({
      vendor_extension: { rule: 'repeated', type: 'NamedAny', id: 1 },
      path: { rule: 'repeated', type: 'NamedPathItem', id: 2 },
    });
    expect(v2.NonBodyParameter.oneofs.oneof.oneof).to.deep.equal([
      'header_parameter_sub_schema',
      'form_data_parameter_sub_schema',
      'query_parameter_sub_schema',
      'path_parameter_sub_schema',
    ]);
  });
});
