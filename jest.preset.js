// Shared jest preset for every package: node environment, sources of sibling packages
// resolved through the "@raptor-pim/source" export condition (no moduleNameMapper needed).
const nxPreset = require('@nx/jest/preset').default;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  testEnvironmentOptions: {
    customExportConditions: ['@raptor-pim/source', 'node', 'require', 'default'],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json', diagnostics: false }],
  },
  coverageReporters: ['text-summary'],
  reporters: ['default', require.resolve('./tools/ci/jest-summary-reporter.cjs')],
};
