'use strict'
// Runs `run` in the test's own process, as bin/benchrig.js does: stdout and
// stderr captured, and what runMain prints with console.error kept as stderr.
const { PassThrough } = require('node:stream')
const { main } = require('../../lib/cli/run.js')
const { runMain } = require('../../lib/cli/dispatch.js')

/** A stream that keeps what is written to it in `.text`. */
function sink () {
  const s = new PassThrough()
  s.text = ''
  s.on('data', (d) => { s.text += d })
  return s
}

/**
 * @param {string} root the benchmark directory
 * @returns {(argv: string[]) => Promise<{code: number, stdout: string, stderr: string}>}
 */
function runIn (root) {
  return async function run (argv) {
    const stdout = sink()
    const stderr = sink()
    const origError = console.error
    let printed = ''
    console.error = (m) => { printed += m + '\n' }
    let code
    try {
      code = await runMain((a) => main(a, { defaultRoot: root, stdout, stderr }), argv, 'run.js')
    } finally {
      console.error = origError
    }
    return { code, stdout: stdout.text, stderr: stderr.text + printed }
  }
}

module.exports = { runIn, sink }
