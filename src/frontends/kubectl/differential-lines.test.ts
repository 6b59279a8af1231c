import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { DEFAULT_RELEASE } from '../../foundation/release';
import { DIFFERENTIAL_LINES } from './differential-lines';
import { DIFFERENTIAL_KUBECTL_MINOR } from './real-kubectl';

const FEATURES = join(__dirname, '..', '..', '..', 'features');
const TAG = '@real-kubectl-differential';

/** A scenario tagged TAG: where it is, its kubectl lines, and whether its feature, Background or itself pins a release. */
interface Tagged {
  where: string;
  kind: string;
  lines: string[];
  pinned: boolean;
}

/** The scenarios tagged TAG in one feature file (the tag on the line before `Scenario:`, or on the feature). */
function taggedIn(file: string): Tagged[] {
  const found: Tagged[] = [];
  let featureTagged = false;
  let backgroundPins = false;
  let tags = '';
  let current: Tagged | undefined;
  let inBackground = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const text = line.trim();
      if (text.startsWith('@')) tags += ` ${text}`;
      else if (/^Feature:/.test(text)) featureTagged = tags.split(/\s+/).includes(TAG);
      else if (/^Background:/.test(text)) inBackground = true;
      else if (/^(Scenario|Scenario Outline|Scenario Template|Example|Examples|Rule):/.test(text)) {
        inBackground = false;
        const kind = text.split(':')[0];
        current =
          featureTagged || tags.split(/\s+/).includes(TAG)
            ? { where: `${file}:${i + 1}`, kind, lines: [], pinned: backgroundPins }
            : undefined;
        if (current) found.push(current);
      }
      if (!text.startsWith('@')) tags = '';
      if (/^(Given|And|But|\*)\s+Kubernetes v\d/.test(text)) {
        if (inBackground) backgroundPins = true;
        else if (current) current.pinned = true;
      }
      const kubectl = /run `(kubectl [^`]*)`/.exec(text);
      if (kubectl && current) current.lines.push(kubectl[1]);
    });
  return found;
}

describe(`${TAG}: a scenario the real-kubectl profile leaves to the differential test`, () => {
  const tagged = readdirSync(FEATURES, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.feature'))
    .flatMap((f) => taggedIn(join(FEATURES, f)));

  it('the differential runs the real kubectl of the default release', () => {
    expect(DIFFERENTIAL_KUBECTL_MINOR).to.equal(DEFAULT_RELEASE.minor);
  });

  it('each tagged scenario is a plain Scenario on the default release whose every kubectl line the differential runs', () => {
    expect(tagged.length, 'scenarios tagged').to.be.at.least(1);
    for (const s of tagged) {
      expect(s.kind, s.where).to.equal('Scenario');
      expect(s.pinned, `${s.where} pins a release`).to.equal(false);
      expect(s.lines, `${s.where} runs kubectl`).to.not.be.empty;
      for (const line of s.lines) expect(DIFFERENTIAL_LINES, `${s.where}: ${line}`).to.include(line);
    }
  });
});
