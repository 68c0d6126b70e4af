// The README example runs and prints what the README shows.
import * as path from 'node:path';
import { registerSpatialToPimPasses } from '../src';
import { makeContext } from './support/harness';
import { expectReadmeExample } from '../../../tools/test-support/readme-example';

it('README example', () => {
  expectReadmeExample({
    packageDir: path.join(__dirname, '..'),
    makeContext,
    register: registerSpatialToPimPasses,
    pipeline: 'builtin.module(spat-to-pim)',
    shownPrefix: '// ',
  });
});
