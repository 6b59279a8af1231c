import { defineParameterType } from '@cucumber/cucumber';
import { parseDuration } from '../src/duration';

/**
 * `{duration}`: 30s, 1.5s, 2m, 1h, 500ms, 1m30s → milliseconds (src/duration.ts, which the `T+…` cells use too). The pattern is deliberately loose so
 * that a bad value (`30`, `-5s`, `1x`, and a unit written apart: `5 s`, `2 minutes`) reaches the
 * transformer and fails with a clear message instead of leaving the step undefined.
 */
defineParameterType({
  name: 'duration',
  regexp: /-?[0-9][\w.]*(?: (?:ms|s|m|h|secs?|seconds?|mins?|minutes?|hours?)\b)?/,
  transformer: (text: string) => parseDuration(text),
});

/** `{command}`: a command line in backquotes, e.g. `kubectl delete pod web --force`. */
defineParameterType({
  name: 'command',
  regexp: /`([^`]*)`/,
  transformer: (text: string) => text,
});
