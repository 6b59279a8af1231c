#!/usr/bin/env bash
# Runs every *.test.ts beside the code it tests with node's test runner (Node 20 has no --test globs).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(find src steps scripts bench -name '*.test.ts' 2>/dev/null | sort)
exec node --require ts-node/register/transpile-only --test --test-reporter=spec "${files[@]}"
