import { describe, it } from 'node:test';
import { expect } from 'chai';
import { readDump, newestTimestamp } from './dump';

const pod = (extra: string) => `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: web
    uid: 1b2c3d4e-0000-4000-8000-000000000001
    creationTimestamp: "2025-06-03T08:00:00Z"
${extra}
  spec:
    containers:
    - name: app
`;

describe('reading a dump (kubectl get -o yaml output)', () => {
  it('an unusable field is one error naming the file, the document, the item, the object, the line and the field', () => {
    expect(() =>
      readDump([
        { file: 'dump.yaml', text: pod('    deletionTimestamp: yesterday\n    deletionGracePeriodSeconds: 30') },
      ]),
    ).to.throw(
      'dump.yaml: document 1, items[0] (Pod "web"), line 10: field metadata.deletionTimestamp must be an RFC 3339 time (e.g. 2025-06-01T10:00:00Z), got "yesterday"',
    );
  });

  it('X2 keeps what the server wrote, and starts at the DELETE (deletionTimestamp minus the grace), not at the deadline', () => {
    const dump = readDump([
      {
        file: 'd.yaml',
        text: pod('    deletionTimestamp: "2025-06-03T09:00:30Z"\n    deletionGracePeriodSeconds: 30'),
      },
    ]);
    expect(dump.objects[0].obj.metadata).to.include({
      uid: '1b2c3d4e-0000-4000-8000-000000000001',
      deletionGracePeriodSeconds: 30,
    });
    expect(new Date(dump.newestMs!).toISOString()).to.equal('2025-06-03T09:00:00.000Z');
    expect(newestTimestamp([{ metadata: { creationTimestamp: '2025-06-03T08:00:00Z' } }])).to.equal(
      Date.parse('2025-06-03T08:00:00Z'),
    );
  });
});
