'use strict'
// The simple text format of a real HTTP run names the tool with its version,
// and shows latency, errors and non-2xx on a detail line under the result
// line (NDJSON carries the same fields: test/adapters/suites.test.js).
const { test } = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')

test('run.js --human text output of an HTTP benchmark: tool, version, latency, errors, non-2xx', async (t) => {
  // One configuration, narrowed by hand: --test would leave the detail line out (Node's test contract).
  const one = ['duration=0.3', 'connections=4', 'chunkedEnc=1', 'chunks=1', 'len=1024', 'type=bytes'].flatMap((kv) => ['--set', kv])
  // --human: the detail line is not in Node core's run.js lines, the default
  const args = [path.join(ROOT, 'run.js'), '--human', ...one, '--set', 'benchmarker=autocannon', '--filter', 'simple', 'http']
  let r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60000 })
  if (r.status !== 0 && /no request completed/.test(r.stderr)) {
    // A busy machine can complete no request in a --test load: retry once, visibly.
    t.comment(`retrying once: ${r.stderr.trim()}`)
    r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60000 })
  }
  t.equal(r.status, 0, r.stderr)
  const lines = r.stdout.trimEnd().split('\n')
  t.equal(lines.shift(), '', 'a blank line before the file, as in Node core')
  t.equal(lines[0], 'http/simple.js', 'the file header line')
  t.match(lines[1], /^http\/simple\.js .* benchmarker='autocannon': [\d,]+\.\d\d$/, 'the result line keeps Node core\'s shape')
  t.match(lines[2], /^ {2}autocannon \d+\.\d+\.\d+; latency ms p50 [\d.]+, p90 [\d.]+, p99 [\d.]+, max [\d.]+; errors 0; non-2xx 0$/)
  t.equal(lines.length, 3)
})
