'use strict'
// benchrig bisect through its entry point when a probe cannot be decided: the
// range it could not split is printed and the exit code is 3. Its own file
// (not bisect.test.js): each file has its own time limit, and that file's
// real bisects take minutes of wall time on a loaded machine.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')

const BENCH = path.join(__dirname, 'fixtures', 'bench')
const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

/** A wrapper around this node whose benchmark does 1 + extra times the work (see fixtures/bench/spin/spin.js). */
function wrapper (file, extra) {
  fs.writeFileSync(file, `#!/bin/sh\nBISECT_EXTRA=${extra} exec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
  return file
}

t.test('benchrig bisect as a process: a probe that never runs leaves the range unresolved, exit 3', async (t) => {
  // The middle candidate starts node for the path check (-e 0) but fails
  // every benchmark run, as a broken build does: its comparisons measure
  // nothing, so its answer stays unknown whatever the machine's load, and
  // the command names the range it could not split and exits 3.
  const dir = t.testdir()
  const good = wrapper(path.join(dir, 'node-good'), 0)
  const bad = wrapper(path.join(dir, 'node-bad'), 3)
  const broken = path.join(dir, 'node-broken')
  fs.writeFileSync(broken, `#!/bin/sh\ncase "$*" in *spin.js*) echo "this build crashes" >&2; exit 1;; esac\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 })
  const r = await spawnOutput(process.execPath, [BIN, 'bisect', '--root', BENCH, '--binaries', [good, broken, bad].join(','),
    '--runs', '6', '--max-runs', '6', '--confidence', '0.95', '--seed', '5', 'spin'], { env: { ...process.env, BENCHRIG_PROGRESS: 'none' } })
  t.equal(r.code, 3, r.stdout + r.stderr)
  t.match(r.stdout, /ends: .* following 1 configuration shown slower/)
  t.match(r.stdout, `probe ${broken}: unknown after 6 pairs (spin/spin.js n=5000000: `)
  t.match(r.stdout, `unresolved: the first bad is after ${good} and at or before ${bad}; ${broken} stayed unknown after 6 pairs`)
  t.notMatch(r.stdout, /first bad: /)
  t.equal((r.stderr.match(/bisect: FAILED \S*spin\/spin\.js with the new side, pair \d/g) ?? []).length, 6, 'each failed run named once')
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace')
})
