'use strict'
// A reader that closes our output early (`node run.js buffers | head -1`,
// `benchrig load ... | head`) has read what it wanted: the process ends
// quietly with exit code 0 instead of throwing EPIPE's stack trace from an
// unhandled 'error' event. Node core's run.js does nothing special (it
// throws); a shell's own tools end quietly, and so do we. Any other stream
// error still throws as before. lib/ never ends the process: the entry point
// passes the function that does (as common.js does for bench.js).
// Runs in benchmark processes too (common.js): Node 18 APIs only.

const INSTALLED = Symbol('benchrig.closedStdout')

/**
 * @param {(code: number) => void} exit ends the process
 * @param {NodeJS.WritableStream[]} [streams] default: stdout and stderr
 */
function endOnClosedStdout (exit, streams = [process.stdout, process.stderr]) {
  for (const stream of streams) {
    if (!stream || stream[INSTALLED]) continue
    stream[INSTALLED] = true
    stream.on('error', (err) => {
      if (err && err.code === 'EPIPE') exit(0)
      else throw err // as an 'error' event without a listener does
    })
  }
}

module.exports = { endOnClosedStdout }
