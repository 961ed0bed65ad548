'use strict'
// compare --old-pkg/--new-pkg with two real versions of a small pure-JS
// package from the npm registry (escape-html 1.0.2 and 1.0.3, whose
// changelog says 1.0.3 improved escaping's speed): each side's processes
// load that side's version; an unknown version is one error before any run.
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { parsePackageSpec } = require('../../lib/sides/npm-package.js')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { nodeBinary } = require('../helpers/tools.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')
const ROOT = path.join(__dirname, '..', 'fixtures', 'sides-pkg')

const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-pkg-cache-'))
t.teardown(() => fs.rmSync(cache, { recursive: true, force: true }))

function compare (args, env = {}) {
  return spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--root', ROOT, '--cache', cache, ...args], { env: { ...process.env, ...env } })
}

/** An install that failed for want of the registry: skipped, unless tools are required. */
function offline (t, stderr) {
  if (!/ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|network/i.test(stderr)) return false
  if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') return false
  t.skip(`the npm registry is not reachable: ${stderr.trim().split('\n').pop()}`)
  return true
}

t.test('NAME@VERSION specs', async (t) => {
  t.same(parsePackageSpec('escape-html@1.0.3', '--old-pkg'), { name: 'escape-html', version: '1.0.3', spec: 'escape-html@1.0.3' })
  t.same(parsePackageSpec('@scope/x@^2', '--new-pkg'), { name: '@scope/x', version: '^2', spec: '@scope/x@^2' })
  t.throws(() => parsePackageSpec('escape-html', '--old-pkg'), { code: 'BENCHRIG_ERR_INVALID_ARG', message: /--old-pkg escape-html: give NAME@VERSION/ })
  t.throws(() => parsePackageSpec('@scope/x', '--new-pkg'), { message: /give NAME@VERSION/ })
  const r = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'he@1.2.0', 'html'])
  t.equal(r.code, 2)
  t.match(r.stderr, /two versions of one package are compared .* give the same NAME twice/)
})

t.test('escape-html 1.0.2 against 1.0.3: each side loads its own version', async (t) => {
  const log = path.join(cache, 'versions.log')
  const out = path.join(cache, 'pkg.csv')
  const r = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.3', '--runs', '1', '--seed', '1', '--output', out, '--ndjson', out + '.ndjson', 'html'], { SIDES_LOG: log })
  if (offline(t, r.stderr)) return
  t.equal(r.code, 0, r.stderr)
  const rows = parseCsvRecords(fs.readFileSync(out, 'utf8')).records
  t.equal(rows.length, 2, 'a pair: one run on each side')
  const meta = JSON.parse(fs.readFileSync(out + '.ndjson', 'utf8').split('\n')[0])
  t.match(meta.old, { package: 'escape-html', package_version: '1.0.2' })
  t.match(meta.new, { package: 'escape-html', package_version: '1.0.3' })
  const loaded = fs.readFileSync(log, 'utf8').trim().split('\n').sort()
  t.same(loaded, ['1.0.2', '1.0.3'], 'every process loaded its side\'s version')
  t.equal(fs.readdirSync(path.join(cache, 'pkg')).filter((d) => !d.startsWith('.')).length, 2, 'one cached prefix per version')
  // resuming with another version on the new side (no --ndjson: FILE.sides.json
  // records the versions) is refused before any run, the file untouched
  const before = fs.readFileSync(out, 'utf8')
  const other = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.2', '--runs', '1', '--resume', out, 'html'])
  t.equal(other.code, 2, other.stderr)
  t.match(other.stderr, /: the new side's package is escape-html@1\.0\.2, the file's escape-html@1\.0\.3; resume with the sides/)
  t.notMatch(other.stderr, /binary is|old side/, 'only the new side\'s version differs')
  t.equal(fs.readFileSync(out, 'utf8'), before, 'the CSV is untouched')
  const same = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.3', '--runs', '1', '--resume', out, 'html'])
  t.equal(same.code, 0, same.stderr)
  t.match(same.stderr, /resuming .*: 2 rows kept\n/, 'the same versions resume')
})

t.test('a version the registry does not have: one error, nothing run', async (t) => {
  const r = await compare(['--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@99.0.0', '--runs', '1', 'html'])
  if (offline(t, r.stderr)) return
  t.equal(r.code, 1)
  t.match(r.stderr, /--new-pkg escape-html@99\.0\.0: "npm install" failed \(exit code \d+\); nothing was run/)
  t.notMatch(r.stderr, /^\s+at /m)
})

t.test('an ES module benchmark: import of the package resolves to each side\'s version, before the project\'s own', async (t) => {
  // a "type": "module" project holding a third escape-html of its own that
  // escapes nothing: a side that imported it would log its version
  const dir = t.testdir({
    'package.json': '{"type":"module"}\n',
    node_modules: { 'escape-html': { 'package.json': '{"name":"escape-html","version":"0.0.0-project","main":"index.js"}\n', 'index.js': 'module.exports = (s) => s\n' } },
    bench: {
      html: {
        'escape.js': [
          "import fs from 'node:fs'",
          "import { createBenchmark } from 'benchrig'",
          "import escapeHtml from 'escape-html'",
          'const bench = createBenchmark(main, { n: [2e4] })',
          'function main ({ n }) {',
          "  const version = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.resolve('escape-html')), 'utf8')).version",
          "  fs.appendFileSync(process.env.SIDES_LOG, version + ' ' + escapeHtml('<') + '\\n')",
          '  let len = 0',
          '  bench.start()',
          "  for (let i = 0; i < n; i++) len += escapeHtml('a <b> & c').length",
          '  bench.end(n)',
          '  if (len < 0) console.log(len)',
          '}'
        ].join('\n')
      }
    }
  })
  fs.symlinkSync(path.join(__dirname, '..', '..'), path.join(dir, 'node_modules', 'benchrig'))
  // node 20 redirects through module.register's hooks thread, node 22 and
  // later through module.registerHooks; both paths of require-hook.js
  for (const node of [process.execPath, nodeBinary(24)].filter(Boolean)) {
    const log = path.join(dir, `esm-${path.basename(path.dirname(path.dirname(node)))}.log`)
    const r = await spawnOutput(process.execPath, [BIN, 'compare', '--no-progress', '--root', path.join(dir, 'bench'), '--cache', cache, '--node', node,
      '--old-pkg', 'escape-html@1.0.2', '--new-pkg', 'escape-html@1.0.3', '--runs', '1', '--seed', '1', 'html'], { cwd: dir, env: { ...process.env, SIDES_LOG: log } })
    if (offline(t, r.stderr)) return
    t.equal(r.code, 0, `${node}: ${r.stderr}`)
    t.same(fs.readFileSync(log, 'utf8').trim().split('\n').sort(), ['1.0.2 &lt;', '1.0.3 &lt;'], `${node}: each process imported its side's version`)
  }
})
