// The README example runs and prints what the README shows.
import * as path from 'node:path';
import { registerBufferizationPasses } from '../src';
import { makeContext } from './support/harness';
import { expectReadmeExample } from '../../../tools/test-support/readme-example';

it('README example', () => {
  expectReadmeExample({
    packageDir: path.join(__dirname, '..'),
    makeContext,
    register: registerBufferizationPasses,
    pipeline: 'builtin.module(pim-bufferize,pim-plan-memory,pim-verify-memory)',
    shownPrefix: '//   ',
  });
});
