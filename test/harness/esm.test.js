'use strict'
// Benchmark files written as ES modules: `import { createBenchmark } from
// 'benchrig'` (index.mjs), from 'benchrig/common', and from a copied
// common.js (as common.cjs in a "type": "module" project) all run under
// `benchrig run`; the ESM entry keeps index.js's parts lazy and shares its
// object with require().
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { nodeBinary } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'benchrig.js')

/** A "type": "module" project with benchrig installed (a link to this checkout). */
function esmProject (t, files) {
  const dir = t.testdir({ 'package.json': '{"type":"module"}\n', node_modules: {}, ...files })
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'benchrig'))
  return dir
}

const body = "const bench = createBenchmark(main, { n: [1000], k: ['a', 'b'] })\nfunction main ({ n }) { bench.start(); let s = 0; for (let i = 0; i < n; i++) s += i; bench.end(n) }\n"

t.test('ESM benchmark files run: from benchrig, benchrig/common and a copied common.cjs', async (t) => {
  const dir = esmProject(t, {
    bench: {
      'common.cjs': fs.readFileSync(path.join(ROOT, 'common.js'), 'utf8'),
      esm: {
        'package.js': `import { createBenchmark } from 'benchrig'\n${body}`,
        'common.js': `import { createBenchmark } from 'benchrig/common'\n${body}`,
        'copied.js': `import { createBenchmark } from '../common.cjs'\n${body}`
      }
    }
  })
  const r = await spawnOutput(process.execPath, [BIN, 'run', '--root', path.join(dir, 'bench'), 'esm'], { cwd: dir })
  t.equal(r.code, 0, r.stderr)
  const names = r.stdout.split('\n').filter((l) => /^esm\/.*: /.test(l)).map((l) => l.split(':')[0]).sort()
  t.same(names, [
    'esm/common.js k="a" n=1000', 'esm/common.js k="b" n=1000',
    'esm/copied.js k="a" n=1000', 'esm/copied.js k="b" n=1000',
    'esm/package.js k="a" n=1000', 'esm/package.js k="b" n=1000'
  ], 'every configuration of every file')
  // by hand on the oldest and newest binaries a benchmark runs on
  for (const node of [nodeBinary(18), nodeBinary(26)].filter(Boolean)) {
    for (const file of ['package.js', 'common.js', 'copied.js']) {
      const h = await spawnOutput(node, [path.join(dir, 'bench', 'esm', file)], { cwd: dir })
      t.equal(h.code, 0, `${node} ${file}: ${h.stderr}`)
      t.equal(h.stdout.split('\n').filter((l) => l.startsWith(`esm/${file} k=`)).length, 2, `${node} ${file}: both configurations`)
    }
  }
})

t.test('import from benchrig: lazy parts stay unloaded, one object with require(), load keeps autocannon\'s shape', async (t) => {
  const dir = esmProject(t, {
    'probe.js': [
      "import { createRequire } from 'node:module'",
      "import api, { createBenchmark, load, analyze } from 'benchrig'",
      'const require = createRequire(import.meta.url)',
      "const loaded = () => Object.keys(require.cache).filter((f) => f.includes('/lib/engine/') || f.includes('/lib/stats/')).length",
      'const before = loaded()',
      'const probe = { before, same: api === require(\'benchrig\'), createBenchmark: typeof createBenchmark, track: typeof load.track, start: typeof load.start }',
      'analyze([])',
      'probe.after = loaded()',
      'console.log(JSON.stringify(probe))'
    ].join('\n')
  })
  const r = await spawnOutput(process.execPath, [path.join(dir, 'probe.js')], { cwd: dir })
  t.equal(r.code, 0, r.stderr)
  const probe = JSON.parse(r.stdout)
  t.equal(probe.before, 0, 'importing named functions loads neither the engine nor the statistics')
  t.ok(probe.after > 0, 'calling analyze() loads its part (the probe can see a load)')
  t.equal(probe.same, true, 'import and require() share one object')
  t.match(probe, { createBenchmark: 'function', track: 'function', start: 'function' })
})

t.test('benchrig/common: the names node reads from the source are the module\'s own', async (t) => {
  const dir = esmProject(t, {
    'names.js': "import * as m from 'benchrig/common'\nimport { createRequire } from 'node:module'\nconsole.log(JSON.stringify({ esm: Object.keys(m).filter((k) => k !== 'default').sort(), cjs: Object.keys(createRequire(import.meta.url)('benchrig/common')).sort() }))\n"
  })
  const r = await spawnOutput(process.execPath, [path.join(dir, 'names.js')], { cwd: dir })
  t.equal(r.code, 0, r.stderr)
  const { esm, cjs } = JSON.parse(r.stdout)
  t.ok(cjs.includes('createBenchmark'))
  t.same(esm, cjs, 'common.js lists every export of lib/harness/common-api.js, and no other')
})
