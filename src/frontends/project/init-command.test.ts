import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { CUCUMBER_CONFIG, FIRST_FEATURE, initCommand } from './init-command';

function output(): Writable & { text: string } {
  const w = new Writable({ write: (chunk: Buffer, _e, done) => ((w.text += chunk.toString()), done()) }) as Writable & {
    text: string;
  };
  w.text = '';
  return w;
}

describe('terminating init', () => {
  it('writes the first feature, cucumber.cjs, reports/ in .gitignore and the script; a second run keeps them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-'));
    writeFileSync(join(dir, '.gitignore'), 'node_modules/');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'op', scripts: { test: 'node --test' } }));
    assert.equal(await initCommand([], dir, output()), 0);
    assert.equal(readFileSync(join(dir, 'features', 'first.feature'), 'utf8'), FIRST_FEATURE);
    assert.equal(readFileSync(join(dir, 'cucumber.cjs'), 'utf8'), CUCUMBER_CONFIG);
    assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8'), 'node_modules/\nreports/\n');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts, {
      test: 'node --test',
      'test:scenarios': 'terminating test',
    });

    writeFileSync(join(dir, 'features', 'first.feature'), 'mine');
    const again = output();
    assert.equal(await initCommand([], dir, again), 0);
    assert.equal(readFileSync(join(dir, 'features', 'first.feature'), 'utf8'), 'mine');
    assert.match(again.text, /features\/first\.feature: kept \(it exists\)/);
    assert.match(again.text, /\.gitignore: reports\/ already ignored/);
    assert.equal(await initCommand(['--force'], dir, output()), 0);
    assert.equal(readFileSync(join(dir, 'features', 'first.feature'), 'utf8'), FIRST_FEATURE);
  });

  it('refuses an unknown argument and an unreadable package.json with one message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-'));
    await assert.rejects(initCommand(['--frce'], dir, output()), {
      message: 'unknown argument "--frce" (see terminating init --help)',
    });
    writeFileSync(join(dir, 'package.json'), '{ "name": ');
    await assert.rejects(initCommand([], dir, output()), {
      message: /^package\.json: .*; nothing else changed: fix it and run terminating init again$/,
    });
    assert.equal(existsSync(join(dir, 'features')), false);
  });
});
