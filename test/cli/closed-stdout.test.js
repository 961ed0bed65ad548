'use strict'
// A reader that closes stdout early (`node run.js buffers | head -1`) ends the
// run quietly: exit code 0, no EPIPE stack trace. Each case spawns the real
// entry point with stdout on a real pipe, reads the first line, closes the
// read end and waits: the lines still to come (each configuration is its own
// child process, so they come later) hit the closed pipe.
const t = require('tap')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { PassThrough } = require('node:stream')
const { endOnClosedStdout } = require('../../lib/closed-stdout.js')

const ROOT = path.join(__dirname, '..', '..')
// four configurations of a short file: lines keep coming after the first
const FILTERS = ['--filter', 'buffer-compare', '--set', 'n=2000']

function firstLineThenClose (args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let first = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.stdout.on('data', (d) => {
      first += d
      // the first non-empty line read: the reader goes away, as `head -1` does
      if (/\S.*\n/.test(first)) child.stdout.destroy()
    })
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stderr, first }))
  })
}

for (const [name, args] of [
  ['run.js', ['run.js', ...FILTERS, 'buffers']],
  ['benchrig run', ['bin/benchrig.js', 'run', ...FILTERS, 'buffers']],
  ['a file run by hand', ['buffers/buffer-compare.js', 'n=2000']],
  ['compare.js', ['compare.js', '--old', process.execPath, '--new', process.execPath, '--runs', '2', ...FILTERS, 'buffers']]
]) {
  t.test(`${name}: a closed stdout ends it quietly`, async (t) => {
    const r = await firstLineThenClose(args)
    t.ok(r.first.length > 0, 'a line was read before the pipe was closed')
    t.equal(r.code, 0, 'exit code 0')
    t.equal(r.signal, null)
    t.notMatch(r.stderr, /EPIPE|Error|at /, 'no error on stderr')
  })
}

t.test('any other stream error still throws; EPIPE calls exit(0) once per listener', async (t) => {
  const stream = new PassThrough()
  const codes = []
  endOnClosedStdout((code) => codes.push(code), [stream])
  endOnClosedStdout((code) => codes.push(code), [stream]) // installed once per stream
  stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
  t.same(codes, [0])
  t.throws(() => stream.emit('error', Object.assign(new Error('boom'), { code: 'EIO' })), { code: 'EIO' })
})
