import { describe, it } from 'node:test';
import { expect } from 'chai';
import { admissionVariables } from './admission';
import {
  CelObject,
  compileMutationExpression,
  escapeKey,
  objectToJson,
  patchTypesEnvironment,
  rewriteConstructions,
  typeNameMismatches,
} from './mutation';

const env = patchTypesEnvironment(36, admissionVariables({ namespaceObject: true, authorizer: true }));
const activation = { object: { metadata: { name: 'web' } }, oldObject: null, request: {}, namespaceObject: null };

function evaluate(expression: string, type: 'Object' | 'list(JSONPatch)'): unknown {
  const r = compileMutationExpression(env, expression, type);
  if ('error' in r) return expect.fail(r.error.detail);
  const v = r.program.evaluate(activation);
  if ('error' in v) return expect.fail(v.error);
  return v.value;
}

describe('R317 the patch types of mutation expressions (apiserver pkg/cel/mutation)', () => {
  it('rewrites Object and JSONPatch constructions, leaving strings, maps and `in` alone', () => {
    expect(rewriteConstructions('Object{metadata: Object.metadata{labels: {"a": "}{"}}}')).to.equal(
      '__object("Object", {"metadata": dyn(__object("Object.metadata", {"labels": dyn({"a": "}{"})}))})',
    );
    expect(rewriteConstructions('x in {"a": 1} ? [] : [JSONPatch{op: "remove", path: "/a",}]')).to.equal(
      'x in {"a": 1} ? [] : [__jsonpatch({"op": dyn("remove"), "path": dyn("/a")})]',
    );
    expect(rewriteConstructions("r'Object{'")).to.equal("r'Object{'");
  });

  it('an Object evaluates to its JSON form, nested Objects as maps, ints as numbers', () => {
    const v = evaluate(
      'Object{spec: Object.spec{replicas: 2, template: Object.spec.template{metadata: Object.spec.template.metadata{name: object.metadata.name}}}}',
      'Object',
    );
    expect(v).to.be.instanceOf(CelObject);
    expect(objectToJson(v)).to.deep.equal({ spec: { replicas: 2, template: { metadata: { name: 'web' } } } });
    expect(typeNameMismatches(v as CelObject)).to.deep.equal([]);
  });

  it('CheckTypeNamesMatchFieldPathNames: an Object whose type name is not its field path is a mismatch', () => {
    const v = evaluate('Object{spec: Object.spec{selector: Object.spec.wrong{}}}', 'Object') as CelObject;
    expect(typeNameMismatches(v)).to.deep.equal([
      'unexpected type name "Object.spec.wrong", expected "Object.spec.selector", which matches field name path from root Object type',
    ]);
  });

  it('JSONPatch: op, path and from strings, any value; jsonpatch.escapeKey escapes ~ and /', () => {
    expect(escapeKey('k8s.io/my~label')).to.equal('k8s.io~1my~0label');
    const [p] = evaluate(
      '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("k8s.io/my~label"), value: "x"}]',
      'list(JSONPatch)',
    ) as { op: string; path: string; value: unknown }[];
    expect([p.op, p.path, p.value]).to.deep.equal(['add', '/metadata/labels/k8s.io~1my~0label', 'x']);
    const r = compileMutationExpression(env, '[JSONPatch{op: 1, path: "/a"}]', 'list(JSONPatch)');
    if ('error' in r) return expect.fail(r.error.detail);
    const bad = r.program.evaluate(activation);
    expect('error' in bad && bad.error).to.equal(
      "expression '[JSONPatch{op: 1, path: \"/a\"}]' resulted in error: unexpected type int64 for JSONPatchType 'op' field",
    );
  });

  it('refuses unknown types, undeclared JSONPatch fields and optional field initializers at compile time', () => {
    const detail = (e: string) => {
      const r = compileMutationExpression(env, e, 'Object');
      return 'error' in r ? r.error.detail : 'compiled';
    };
    expect(detail('Widget{a: 1}')).to.equal(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'Widget' (in container '')\n | Widget{a: 1}\n | ^",
    );
    expect(detail('[JSONPatch{op: "add", pth: "/x"}]')).to.contain("undefined field 'pth'");
    expect(detail('Object{?spec: optional.none()}')).to.contain('optional field initializers');
    expect(detail('[Object{}]')).to.equal('must evaluate to Object but got list(Object)');
    // A checker error inside a construction points into the expression as written (at the
    // operation's first operand, where the evaluator places it; cel-go points at the operator).
    expect(detail('Object{spec: Object.spec{replicas: 1 + "a"}}')).to.equal(
      "compilation failed: ERROR: <input>:1:36: found no matching overload for '_+_' applied to '(int, string)'\n | Object{spec: Object.spec{replicas: 1 + \"a\"}}\n | ...................................^",
    );
    expect(detail('Object{spec: Object.spec{replicas: 1 +}}')).to.match(
      /^compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    );
  });
});
