import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster } from '../../cluster/cluster';
import { ControllerProcess } from './controller-process';

describe("ControllerProcess: a scenario's own controller program (issue 33 item 5)", () => {
  it('a program that exits before it watches anything fails the step, naming it, its exit and what it printed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'controller-process-'));
    try {
      const program = path.join(dir, 'crash.mjs');
      writeFileSync(program, "console.error('no KUBECONFIG? ' + Boolean(process.env.KUBECONFIG)); process.exit(3);\n");
      const error = await ControllerProcess.start(new Cluster(), program, dir).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error).to.equal(`the controller ${program} exited with code 3:\nno KUBECONFIG? true`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
