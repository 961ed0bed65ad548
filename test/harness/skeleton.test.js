'use strict'
// The project skeleton of the harness-core issue: package.json's contract,
// the README's two commands and .ci/run, the deliberate coverage threshold,
// scripts/install-tools.sh's idempotent and failing paths, common.js's
// sendResult and PORT, and bench/harness-overhead.js producing its figure.
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { collect } = require('./fixtures/helpers.js')

const REPO = path.join(__dirname, '..', '..')
const pkg = require('../../package.json')
const read = (rel) => fs.readFileSync(path.join(REPO, rel), 'utf8')

test('package.json: commonjs, the benchrig bin, exports, engines, scripts, tools', async (t) => {
  t.equal(pkg.name, 'benchrig')
  t.equal(pkg.type, 'commonjs')
  t.same(pkg.bin, { benchrig: 'bin/benchrig.js' })
  t.ok(fs.statSync(path.join(REPO, pkg.bin.benchrig)).mode & 0o111, 'the bin is executable')
  t.equal(pkg.engines.node, '>=20')
  // The public API resolves through the exports map (self-reference by name).
  t.type(require('benchrig').analyze, 'function')
  t.type(require('benchrig/common').createBenchmark, 'function')
  t.equal(require('benchrig/common.js'), require('benchrig/common'))
  t.ok(pkg.dependencies.yargs && pkg.dependencies.autocannon, 'yargs and autocannon are dependencies')
  for (const dev of ['tap', 'eslint', 'neostandard', 'typescript']) t.ok(pkg.devDependencies[dev], `${dev} is a dev dependency`)
  // lint is eslint, then the type check of lib/ (tsconfig.check.json), then the import order
  t.equal(pkg.scripts.lint, 'eslint . && tsc -p tsconfig.check.json && node scripts/import-graph.js --check')
  const help = spawnSync(process.execPath, [path.join(REPO, pkg.bin.benchrig), '--help'], { encoding: 'utf8' })
  t.equal(help.status, 0)
  for (const cmd of ['run', 'compare', 'scatter', 'analyze', 'load']) t.match(help.stdout, new RegExp(`^  ${cmd} `, 'm'), `benchrig ${cmd} is listed`)
})

test('coverage: c8 checks a threshold that is set on purpose, and tap leaves it to c8', async (t) => {
  const m = /c8 --check-coverage --lines (\d+)/.exec(pkg.scripts.test)
  t.ok(m, `npm test runs c8 with --check-coverage: ${pkg.scripts.test}`)
  t.ok(Number(m[1]) >= 70 && Number(m[1]) < 100, `a line threshold between 70 and 100 (${m[1]})`)
  const taprc = read('.taprc')
  t.match(taprc, /^disable-coverage: true$/m, 'tap does not impose its own 100% default')
  t.match(taprc, /^# Coverage is measured by c8[^]*deliberate threshold/m, '.taprc says why')
})

test('the wall-clock proofs run on their own, one file at a time, after the rest', async (t) => {
  const taprc = read('.taprc')
  const list = /^exclude:\n((?: {2}- .*\n?)+)/m.exec(taprc)
  t.ok(list, '.taprc has an exclude list')
  const excluded = [...list[1].matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1])
  t.same(excluded.sort(), ['test/engine/h2-shapes.test.js', 'test/engine/rate.test.js'], 'out of the parallel pool')
  const serial = /tap && tap --jobs 1 ((?:test\/\S+\.test\.js ?)+)/.exec(pkg.scripts.test)
  t.ok(serial, `npm test runs them after the rest with --jobs 1: ${pkg.scripts.test}`)
  t.same(serial[1].trim().split(' ').sort(), excluded.sort(), 'the same files')
  for (const f of excluded) t.ok(fs.existsSync(path.join(REPO, f)), f)
})

test('README: the two commands; .ci/run runs the second', async (t) => {
  const readme = read('README.md')
  const blocks = [...readme.matchAll(/```sh\n([^`]+)```/g)].map((b) => b[1].trim())
  t.equal(blocks[0], 'npm ci && node run.js buffers', 'first command: install and run a real suite')
  t.equal(blocks[1], 'npm run test:all', 'second command: everything, whole test suite')
  const all = pkg.scripts['test:all']
  t.match(all, /bash scripts\/install-tools\.sh/, 'test:all installs the tools')
  t.match(all, /npm ci/)
  t.match(all, /npm run lint/)
  t.match(all, /BENCHRIG_REQUIRE_TOOLS=1 npm test/, 'nothing skipped: a missing tool fails')
  const ci = read('.ci/run')
  t.match(ci, /^npm run test:all$/m, '.ci/run calls the README command')
  t.ok(fs.statSync(path.join(REPO, '.ci/run')).mode & 0o111, '.ci/run is executable')
})

test('install-tools.sh: skips what is present, names what it would install', async (t) => {
  const script = path.join(REPO, 'scripts', 'install-tools.sh')
  const text = fs.readFileSync(script, 'utf8')
  for (const p of ['wrk', 'nghttp2-client', 'nginx', 'r-base-core', 'r-cran-ggplot2', 'r-cran-plyr']) t.match(text, p, `mentions ${p}`)
  t.match(text, /apt-get install [^\n]*--no-install-recommends/)
  // With every tool on PATH (the CI machine after test:all), a second run
  // installs nothing and says so; no root needed.
  const present = spawnSync('bash', [script], { encoding: 'utf8' })
  if (present.stdout.includes('nothing to install')) {
    t.equal(present.status, 0)
    for (const tool of ['wrk', 'h2load', 'nginx', 'Rscript']) t.match(present.stdout, `install-tools: ${tool} is present, skipped`)
  } else {
    t.comment(`some tool is missing here: ${present.stdout.trim()}`)
  }
  // With a PATH that holds only bash and id, nothing is found and there is
  // neither sudo nor apt-get: it names the Debian packages and stops (never
  // installs from a test).
  const bin = t.testdir({})
  for (const cmd of ['bash', 'id']) {
    const real = spawnSync('bash', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim()
    fs.symlinkSync(real, path.join(bin, cmd))
  }
  const bare = spawnSync(path.join(bin, 'bash'), [script], { encoding: 'utf8', env: { PATH: bin } })
  t.equal(bare.status, 1, bare.stderr)
  t.match(bare.stderr, /^install-tools: (need root to install|apt-get not found; install these Debian\/Ubuntu packages by hand): /m)
  for (const p of ['wrk', 'nghttp2-client', 'r-base-core', 'r-cran-ggplot2', 'r-cran-plyr']) t.match(bare.stderr, new RegExp(`\\b${p}\\b`), `names ${p}`)
})

test('common.js: sendResult reports a raw result; PORT is env PORT or 12346', async (t) => {
  const dir = t.testdir({
    'common.js': `module.exports = require(${JSON.stringify(path.join(REPO, 'common.js'))})\n`,
    raw: {
      'send.js': [
        "'use strict'",
        "const common = require('../common.js')",
        'common.createBenchmark(main, { n: [1, 2] })',
        'function main (conf) { common.sendResult({ name: "raw/send.js", conf, rate: conf.n * 10, time: 0.25, port: common.PORT }) }',
        ''
      ].join('\n')
    }
  })
  const r = await collect(path.join(dir, 'raw', 'send.js'), { env: { ...process.env, PORT: '4321' } })
  t.equal(r.exitCode, 0)
  t.same(r.reports.map((x) => [x.conf.n, x.rate, x.time]), [[1, 10, 0.25], [2, 20, 0.25]])
  t.same(r.reports.map((x) => (x.extra ?? x).port), [4321, 4321], 'common.PORT from env PORT')
  const env = { ...process.env }
  delete env.PORT
  const dflt = spawnSync(process.execPath, ['-p', `require(${JSON.stringify(path.join(REPO, 'common.js'))}).PORT`], { encoding: 'utf8', env })
  t.equal(dflt.stdout.trim(), '12346', "Node core's default port")
})

test('bench/harness-overhead.js measures one configuration against node -e 0', async (t) => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bench', 'harness-overhead.js'), '--rounds', '1', '--configs', '2'], { encoding: 'utf8', timeout: 60000 })
  t.equal(r.status, 0, r.stderr)
  // the output's shape, not its figures: under load a marginal cost can print
  // negative (a later configuration ran faster than the first)
  const num = '-?\\d+(?:\\.\\d+)?'
  t.match(r.stdout, new RegExp(`^node -e 0\\s+${num}\\s+${num}\\s+${num}$`, 'm'), 'a min/median/max row for node -e 0')
  const ratio = r.stdout.match(new RegExp(`^ratio: one configuration / node -e 0 = (${num})x \\(target < 1\\.5x\\)$`, 'm'))
  t.ok(ratio, 'prints the figure and the target')
  t.ok(Number.isFinite(Number(ratio?.[1])), `the figure is a number (${ratio?.[1]})`)
})

test('bench/engine-vs-peers.js refuses an unknown flag before starting anything', async (t) => {
  for (const argv of [['--help'], ['--only', 'p3'], ['--rounds']]) {
    const r = spawnSync(process.execPath, [path.join(REPO, 'bench', 'engine-vs-peers.js'), ...argv], { encoding: 'utf8', timeout: 30000 })
    t.equal(r.status, 2, `${argv.join(' ')}: exit 2`)
    t.match(r.stderr, /^engine-vs-peers: unknown or incomplete argument '.+'; usage: node bench\/engine-vs-peers\.js /, 'one line naming it, with the usage')
    t.equal(r.stdout, '', 'nothing run')
  }
})

test('bench/instructions-of-parts.js refuses bad counts before starting valgrind (exit 2)', async (t) => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bench', 'instructions-of-parts.js'), '--n1', '10', '--n2', '5'], { encoding: 'utf8', timeout: 30000 })
  t.equal(r.status, 2)
  t.equal(r.stderr.trim(), 'instructions-of-parts: --n1 and --n2: whole numbers with 1 <= n1 < n2')
  t.equal(r.stdout, '')
})
