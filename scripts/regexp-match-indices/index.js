/**
 * Stands in for `regexp-match-indices` 1.0.2 (package.json "overrides"), which cucumber-expressions
 * calls for every step it matches. That polyfill looks for native match indices on a RegExp
 * without the `d` flag, never finds them, and parses each step definition's pattern with
 * regexp-tree instead: ≈ 0.4 s of CPU in every cucumber process. Node has had the `d` flag since
 * 16; this uses it, with one `d` copy of each pattern.
 *
 * Same contract: exec(regexp, string) is `regexp.exec(string)` with `indices` on the match, and
 * moves a global or sticky regexp's lastIndex as exec would.
 */
'use strict';

/** Each pattern's copy with the `d` flag. */
const withIndices = new WeakMap();

function exec(regexp, string) {
  if (regexp.hasIndices) return regexp.exec(string);
  let copy = withIndices.get(regexp);
  if (copy === undefined) {
    copy = new RegExp(regexp.source, `${regexp.flags}d`);
    withIndices.set(regexp, copy);
  }
  copy.lastIndex = regexp.lastIndex;
  const match = copy.exec(string);
  if (regexp.global || regexp.sticky) regexp.lastIndex = copy.lastIndex;
  return match;
}

module.exports = exec;
