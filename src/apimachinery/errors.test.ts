import { describe, it } from 'node:test';
import { expect } from 'chai';
import { conflict, notFound, StatusError } from './errors';

describe('StatusError', () => {
  it('a NotFound (a routine answer) is built without walking the call stack, with its full message', () => {
    const e = notFound('pods', 'web');
    expect(e).to.be.instanceOf(StatusError);
    expect(e.message).to.equal('pods "web" not found');
    expect(e.status).to.include({ code: 404, reason: 'NotFound' });
    expect(e.stack).to.not.match(/\n\s+at /);
  });

  it('other failures keep their stack trace, and the stack limit is restored', () => {
    const limit = Error.stackTraceLimit;
    notFound('pods', 'web');
    expect(Error.stackTraceLimit).to.equal(limit);
    expect(conflict('pods', 'web', 'x').stack).to.match(/\n\s+at /);
  });
});
