'use strict'
// The benchmark of one small project per runner for --old-pkg/--new-pkg
// (test/runners/_pkg-case.js says what is compared): an "escape" task that
// calls escape-html on TEXT and a "control" task that splits the same text
// and never loads escape-html, with short time settings, and the command
// that runs it.
const { N26 } = require('./_projects.js')

/** A JavaScript statement that makes `text`, the input of both tasks: one tag, then 2 KB of plain words. */
const TEXT = "const text = '<p>' + 'plain words without markup '.repeat(80)"

/** @type {Record<string, import('./_pkg-case.js').PkgProject>} */
const PKG_PROJECTS = {
  tinybench: {
    files: {
      'bench.mjs': `import { Bench } from 'tinybench'
import escapeHtml from 'escape-html'
${TEXT}
const bench = new Bench({ time: 40, warmupTime: 10 })
bench.add('escape', () => escapeHtml(text))
bench.add('control', () => text.split(' ').length)
await bench.run()
console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))
`
    },
    command: 'node bench.mjs',
    measure: 'wall'
  },
  // vite resolves a bench file's imports itself, past the package hooks: the
  // file takes escape-html from node's require (createRequire), which the
  // side's hook redirects
  vitest: {
    files: {
      'escape.bench.mjs': `import { createRequire } from 'node:module'
import { bench, describe } from 'vitest'
const escapeHtml = createRequire(import.meta.url)('escape-html')
${TEXT}
describe('escape-html', () => {
  bench('escape', () => { escapeHtml(text) }, { time: 40, warmupTime: 10 })
  bench('control', () => { text.split(' ').length }, { time: 40, warmupTime: 10 })
})
`,
      'vitest.config.mjs': 'export default { test: { include: [], benchmark: { include: [\'*.bench.mjs\'] } } }\n'
    },
    command: 'node node_modules/vitest/vitest.mjs bench --run --outputJson {out}',
    measure: 'wall',
    tasks: ['escape.bench.mjs > escape-html > escape', 'escape.bench.mjs > escape-html > control']
  },
  mitata: {
    files: {
      'bench.mjs': `import { bench, run, do_not_optimize } from 'mitata'
import escapeHtml from 'escape-html'
${TEXT}
bench('escape', () => do_not_optimize(escapeHtml(text)))
bench('control', () => do_not_optimize(text.split(' ').length))
await run({ format: 'json' })
`
    },
    command: 'node bench.mjs',
    measure: 'wall'
  },
  // through our reporter, which benchrig's NODE_PATH entry lets require find
  benchmarkjs: {
    files: {
      'bench.js': `const Benchmark = require('benchmark')
const escapeHtml = require('escape-html')
${TEXT}
const suite = new Benchmark.Suite()
const opts = { minTime: 0.001, maxTime: 0.05, minSamples: 30 }
suite.add('escape', () => escapeHtml(text), opts).add('control', () => text.split(' ').length, opts)
require('benchrig/benchmarkjs-reporter')(suite)
suite.run()
`
    },
    command: 'node bench.js',
    measure: 'wall'
  },
  // require() through the package hook; bench-node's value is a mean: --measure cpu
  'bench-node': {
    files: {
      'bench.js': `const { Suite, jsonReport } = require('bench-node')
const escapeHtml = require('escape-html')
${TEXT}
const suite = new Suite({ reporter: jsonReport })
const opts = { minTime: 0.02, maxTime: 0.05 }
suite.add('escape', opts, () => escapeHtml(text)).add('control', opts, () => text.split(' ').length)
suite.run()
`
    },
    command: 'node --allow-natives-syntax bench.js',
    measure: 'cpu'
  },
  // node 26 (--node): import through module.registerHooks; 100 calls a sample
  // (60 us under 1.0.2), well above the timer's step
  'node-bench': {
    files: {
      'bench.mjs': `import { bench } from 'node:bench'
import escapeHtml from 'escape-html'
${TEXT}
let sink = 0
bench('escape', (b) => { b.start(); for (let i = 0; i < 100; i++) sink += escapeHtml(text).length; b.end(100) })
bench('control', (b) => { b.start(); for (let i = 0; i < 100; i++) sink += text.split(' ').length; b.end(100) })
process.on('exit', () => { if (sink === 0) console.error('nothing ran') })
`
    },
    command: 'node --experimental-bench --no-warnings --bench --bench-reporter=json --bench-samples=30 --bench-warmup=3 -- bench.mjs',
    measure: 'wall',
    node: N26
  },
  // the configurations are commands: escape 30000 calls, control 5000 splits
  // without loading escape-html. A process took 0.15-0.2 s of CPU under
  // 1.0.2 (most of it node's start-up with the package hook, which on node 20
  // starts a hooks thread) and 0.35-0.57 s under 1.0.3; control 0.15-0.24 s.
  // --measure cpu: hyperfine's user + system seconds, which waiting for a CPU
  // does not inflate
  hyperfine: {
    files: {
      'cli.js': `${TEXT}
let n = 0
if (process.argv[2] === 'escape') {
  const escapeHtml = require('escape-html')
  for (let i = 0; i < 30000; i++) n += escapeHtml(text).length
} else {
  for (let i = 0; i < 5000; i++) n += text.split(' ').length
}
if (n === 0) process.exitCode = 1
`
    },
    command: 'hyperfine -N --runs 5 --export-json {out} \'node cli.js escape\' \'node cli.js control\'',
    measure: 'cpu',
    tasks: ['node cli.js escape', 'node cli.js control'],
    tool: 'hyperfine'
  }
}

module.exports = { PKG_PROJECTS, TEXT }
