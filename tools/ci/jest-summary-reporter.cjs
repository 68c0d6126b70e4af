// A jest reporter that records each package's totals in <workspace>/.test-results/<name>.json,
// so the workspace test command can print one closing line over every package.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

class JestSummaryReporter {
  constructor(globalConfig, _options, reporterContext) {
    this.globalConfig = globalConfig;
    this.context = reporterContext;
  }

  onRunComplete(_contexts, results) {
    const rootDir = this.globalConfig.rootDir;
    const name = path.basename(rootDir);
    const workspace = path.resolve(rootDir, '..', '..');
    const dir = path.join(workspace, '.test-results');
    fs.mkdirSync(dir, { recursive: true });
    const summary = {
      package: name,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      suitesFailed: results.numFailedTestSuites + results.numRuntimeErrorTestSuites,
    };
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(summary) + '\n');
  }
}

module.exports = JestSummaryReporter;
