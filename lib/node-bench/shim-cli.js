'use strict'
// Our stand-in for `node --experimental-bench --bench --bench-reporter=json
// --bench-samples=S --bench-warmup=W -- FILE` on binaries without node:bench:
//
//   node lib/node-bench/shim-cli.js --samples=S --warmup=W FILE
//
// Makes `require('node:bench')` (and 'bench' under the node: scheme only, as
// Node has it) return our implementation, loads FILE, runs what it declared
// and writes one JSON record per line to stdout, bigints as strings like
// Node's json reporter. Exit code 1 when a benchmark failed.
// Runs inside the binary under test: Node 18 APIs only.
const Module = require('node:module')
const path = require('node:path')
const { createHarness } = require('./api.js')
const { runDeclared } = require('./run-declared.js')

function parseArgs (argv) {
  const opts = { samples: 1, warmup: 0, file: undefined }
  for (const arg of argv) {
    const m = /^--(samples|warmup)=(\d+)$/.exec(arg)
    if (m) opts[m[1]] = Number(m[2])
    else if (!arg.startsWith('--') && opts.file === undefined) opts.file = path.resolve(arg)
    else throw new Error(`shim-cli: unexpected argument "${arg}" (usage: --samples=S --warmup=W FILE)`)
  }
  if (!opts.file) throw new Error('shim-cli: give the benchmark file')
  return opts
}

function toJson (record) {
  return JSON.stringify(record, (k, v) => typeof v === 'bigint' ? String(v) : v)
}

async function main () {
  const opts = parseArgs(process.argv.slice(2))
  const harness = createHarness()
  // Module._load is where every CommonJS require() of every supported
  // version passes before the node: scheme is checked; _resolveFilename
  // comes too late for 'node:' names on Node 20+.
  // an internal of node's loader, absent from its types
  const loader = /** @type {typeof Module & {_load: Function}} */ (Module)
  const load = loader._load
  loader._load = function (request, parent, isMain) {
    if (request === 'node:bench') return harness.api
    return load.apply(this, arguments)
  }
  require(opts.file)
  await harness.settled()
  const write = (record) => new Promise((resolve) => process.stdout.write(toJson(record) + '\n', resolve))
  const counts = await runDeclared(harness.root, { file: opts.file, samples: opts.samples, warmup: opts.warmup, emit: write })
  await write({ type: 'bench:summary', data: { file: opts.file, success: counts.failed === 0, counts: { ...counts, total: counts.completed + counts.failed + counts.skipped } } })
  if (counts.failed > 0) process.exitCode = 1
}

main().catch((err) => {
  // An ES module's `import ... from 'node:bench'` goes through the ESM
  // loader, which Module._load does not see.
  const esm = err && (err.code === 'ERR_REQUIRE_ESM' || err.code === 'ERR_UNKNOWN_BUILTIN_MODULE')
  process.stderr.write(esm
    ? `benchrig's node:bench (for node ${process.version}, which has none) loads CommonJS files only, and ${process.argv.slice(2).pop()} is an ES module: use require('node:bench'), or run it on a node with node:bench (26.9+)\n`
    : `${(err && err.stack) || err}\n`)
  process.exitCode = 1
})
