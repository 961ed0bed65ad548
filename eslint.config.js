'use strict'
const neostandard = require('neostandard')

module.exports = [
  ...neostandard({
    ignores: ['node_modules/**', 'coverage/**', '.tap/**', '.tools/**', '.node-versions/**', 'test/fixtures/**', 'doc_img/**', 'tap-snapshots/**']
  }),
  {
    // lib/ never ends the process: entry points set process.exitCode instead.
    files: ['lib/**/*.js'],
    rules: {
      'n/no-process-exit': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'lib/ never calls process.exit; return or throw and let the entry point set process.exitCode.' }]
    }
  }
]
