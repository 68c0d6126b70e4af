// Entry of `raptor` from the TypeScript sources, for tests that run a command in a process of its
// own without a build (see run-cli-from-sources.ts): Node loads it with `-r @swc-node/register`
// (TypeScript to CommonJS on the fly) and `--conditions=@raptor-pim/source` (the workspace
// packages resolve to their sources, as in jest).
'use strict';
require('../../src/bin.ts');
