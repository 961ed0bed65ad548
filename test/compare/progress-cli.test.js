'use strict'
// compare's progress line through its real entry point: drawn in place on a
// TTY with the run, file, binary, pair, elapsed time and ETA; absent with
// --no-progress and when stderr is not a terminal (stdout holds only CSV).
const t = require('tap')
const { main } = require('../../lib/cli/compare.js')
const { BENCH } = require('./fixtures/helpers.js')

function sink (isTTY) {
  let text = ''
  return { isTTY, columns: 120, write: (s) => { text += s; return true }, get text () { return text } }
}

const ARGS = ['--old', process.execPath, '--new', process.execPath, '--runs', '2', '--seed', '5', '--set', 'kind=mix', '--root', BENCH, 'cpu']

t.test('a TTY gets the progress line with ETA; --no-progress and pipes get none', async (t) => {
  const out = sink(false)
  const err = sink(true)
  const env = {} // not CI, no BENCHRIG_PROGRESS: the choice is the stream's
  t.equal(await main(ARGS, { stdout: out, stderr: err, handleSigint: false, env }), 0, err.text)
  const draws = err.text.split('\r').filter((s) => s.startsWith('['))
  // Each draw returns to column 0 and ends by erasing the rest of the line.
  t.ok(draws.every((d) => d.endsWith('\u001b[K')), 'drawn in place')
  for (let i = 1; i <= 4; i++) t.ok(draws.some((d) => d.startsWith(`[${i}/4] cpu/spin.js `)), `run ${i} of 2 pairs x 2 binaries is shown`)
  t.match(draws[0], /^\[1\/4\] cpu\/spin\.js (old|new) pair 1 {2}elapsed 0:\d\d {2}ETA \?/)
  t.ok(draws.some((d) => /^\[1\/4\] cpu\/spin\.js (old|new) pair 1 config 1\/1 {2}elapsed/.test(d)), 'the configuration running is shown')
  t.match(draws[draws.length - 1], /^\[4\/4\] cpu\/spin\.js (old|new) pair 2( config 1\/1)? {2}elapsed \d+:\d\d {2}ETA \d+:\d\d/, 'an ETA once a run has finished')
  t.ok(err.text.endsWith('\r\u001b[K'), 'erased at the end')
  t.equal(out.text.trim().split('\n').length, 5, 'stdout: the header and 4 rows, no progress')

  const quietErr = sink(true)
  t.equal(await main(['--no-progress', ...ARGS], { stdout: sink(false), stderr: quietErr, handleSigint: false, env }), 0)
  t.notMatch(quietErr.text, /\[\d+\/4\]/, '--no-progress draws nothing')
  const pipeErr = sink(false)
  t.equal(await main(ARGS, { stdout: sink(false), stderr: pipeErr, handleSigint: false, env }), 0)
  t.notMatch(pipeErr.text, /\[\d+\/4\]/, 'no progress on a pipe outside CI')
  t.match(pipeErr.text, /^compare: cpu\/spin\.js done \(so far; the final analysis spans every file\):\n {2}kind='mix' n=1000000: /, 'but the file\'s verdicts when it ends')
  const ciErr = sink(false)
  t.equal(await main(ARGS, { stdout: sink(false), stderr: ciErr, handleSigint: false, env: { CI: 'true' } }), 0)
  const lines = ciErr.text.trim().split('\n').filter((l) => l.startsWith('compare: ['))
  t.equal(lines.length, 4, 'in CI logs: one plain line per finished run')
  t.match(ciErr.text, /compare: cpu\/spin\.js done \(so far/, 'and the file\'s verdicts')
  t.match(lines[3], /^compare: \[4\/4\] cpu\/spin\.js (old|new) pair 2 done {2}elapsed \d+:\d\d {2}ETA 0:00$/)
  t.notMatch(ciErr.text, /\r|\u001b/, 'no control characters in a log') // eslint-disable-line no-control-regex
})
