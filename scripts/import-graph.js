#!/usr/bin/env node
'use strict'
// The import order of lib/, stated once and checked: each file belongs to a layer, and an import
// only goes down (or sideways inside a folder). Prints the circles of files, the imports that go
// up, the pairs of folders that import each other and the requires inside functions; with --check
// it fails on any of them that is not on the list of known ones (scripts/import-graph.known.json),
// so the count can only go down. Usage:
//   node scripts/import-graph.js [--json] [--check] [--write-known] [--root DIR]

const fs = require('node:fs')
const path = require('node:path')
const acorn = require('acorn')
const walk = require('acorn-walk')

// the tree to read (--root: another checkout, as the test's small trees)
let ROOT = path.resolve(__dirname, '..')
const KNOWN_NAME = 'scripts/import-graph.known.json'

// Top to bottom. A folder (or file) of lib/ not named here is an error: a new room needs a layer.
const LAYERS = [
  { name: 'entry', members: ['bin', 'index.js', 'index.mjs', 'common.js', 'run.js', 'compare.js', 'scatter.js', 'calibrate-n.js', '_http-benchmarkers.js', 'lib/cli'] },
  { name: 'views', members: ['lib/report'] },
  { name: 'workflows', members: ['lib/compare', 'lib/history', 'lib/bisect', 'lib/profile', 'lib/sides', 'lib/node-bench', 'lib/calibrate', 'lib/runners'] },
  { name: 'engines', members: ['lib/engine', 'lib/harness', 'lib/stats', 'lib/adapters', 'lib/serve'] },
  { name: 'record', members: ['lib/record'] },
  { name: 'leaves', members: ['lib/errors.js', 'lib/closed-stdout.js', 'lib/suggest.js', 'lib/prng.js'] }
]

/** @param {string} rel a path relative to the repo root */
function memberOf (rel) {
  for (let rank = 0; rank < LAYERS.length; rank++) {
    for (const member of LAYERS[rank].members) {
      if (rel === member || rel.startsWith(member + '/')) return { rank, member }
    }
  }
  return undefined
}

// The folder that a file stands for in the folder graph: lib/engine/http1/x.js -> lib/engine.
function roomOf (rel) {
  const found = memberOf(rel)
  return found ? found.member : rel
}

function listSources () {
  const out = []
  const visit = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.isDirectory()) visit(rel)
      else if (/\.(c|m)?js$/.test(entry.name)) out.push(rel)
    }
  }
  visit('lib')
  if (fs.existsSync(path.join(ROOT, 'bin'))) visit('bin')
  for (const top of LAYERS[0].members) if (/\.m?js$/.test(top) && fs.existsSync(path.join(ROOT, top))) out.push(top)
  return out.sort()
}

function resolveLocal (fromRel, spec) {
  if (!spec.startsWith('.')) return undefined
  const base = path.join(path.dirname(path.join(ROOT, fromRel)), spec)
  for (const candidate of [base, base + '.js', path.join(base, 'index.js')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(ROOT, candidate).split(path.sep).join('/')
  }
  return undefined
}

/** Every local require/import of a file, with whether it sits inside a function. */
function importsOf (rel) {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8')
  const sourceType = rel.endsWith('.mjs') ? 'module' : 'script'
  const ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType, allowHashBang: true, allowReturnOutsideFunction: true, locations: true })
  const found = []
  const lines = text.split('\n')
  const note = (spec, node, ancestors, kind) => {
    if (typeof spec !== 'string') return
    const inFunction = ancestors.some((a) => /Function/.test(a.type))
    const line = node.loc.start.line
    found.push({ spec, to: resolveLocal(rel, spec), line, inFunction, kind, why: inFunction && hasWhy(lines, line) })
  }
  walk.ancestor(ast, {
    CallExpression (node, _, ancestors) {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
        note(node.arguments[0].value, node, ancestors, 'require')
      }
    },
    ImportExpression (node, _, ancestors) {
      if (node.source.type === 'Literal') note(node.source.value, node, ancestors, 'import()')
    },
    ImportDeclaration (node, _, ancestors) { note(node.source.value, node, ancestors, 'import') }
  })
  return found
}

// A require inside a function says why it waits: "lazy: ..." in a comment on
// its line or in the comment lines right above it, or above the run of
// require lines it belongs to (start-up of a command or a benchmark child, an
// optional dependency, a path few runs take).
const WHY = /(\/\/|\/\*|^\s*\*).*\blazy:/
function hasWhy (lines, line) {
  if (WHY.test(lines[line - 1])) return true
  for (let i = line - 2; i >= 0 && /^\s*(\/\/|\/\*|\*)|\brequire\(/.test(lines[i]); i--) if (WHY.test(lines[i])) return true
  return false
}

// Tarjan's strongly connected components: each component of more than one file is a circle.
function circlesOf (files, edges) {
  let index = 0
  const stack = []
  const state = new Map()
  const circles = []
  const connect = (v) => {
    const s = { index, low: index, onStack: true }
    index++
    state.set(v, s)
    stack.push(v)
    for (const w of edges.get(v) || []) {
      if (!state.has(w)) {
        connect(w)
        s.low = Math.min(s.low, state.get(w).low)
      } else if (state.get(w).onStack) s.low = Math.min(s.low, state.get(w).index)
    }
    if (s.low === s.index) {
      const component = []
      let w
      do {
        w = stack.pop()
        state.get(w).onStack = false
        component.push(w)
      } while (w !== v)
      if (component.length > 1) circles.push(component.sort())
    }
  }
  for (const f of files) if (!state.has(f)) connect(f)
  return circles.sort((a, b) => a[0] < b[0] ? -1 : 1)
}

function buildReport () {
  const files = listSources()
  const edges = new Map()
  const upward = []
  const unplaced = []
  const lazy = []
  const lazyWithoutWhy = []
  const unresolved = []
  const rooms = new Map()
  for (const rel of files) {
    const from = memberOf(rel)
    if (!from) unplaced.push(rel)
    const targets = new Set()
    for (const imp of importsOf(rel)) {
      if (imp.inFunction) lazy.push(`${rel}:${imp.line} ${imp.spec}`)
      if (imp.inFunction && !imp.why) lazyWithoutWhy.push(`${rel} ${imp.spec}`)
      // a path that names no file fails only when its branch runs: found here instead
      if (imp.spec.startsWith('.') && !imp.to) unresolved.push(`${rel}:${imp.line} ${imp.spec}`)
      // lib/ and the entry files at the root (an engine that requires
      // _http-benchmarkers.js imports upward as surely as one that requires lib/cli)
      if (!imp.to || !memberOf(imp.to)) continue
      targets.add(imp.to)
      const to = memberOf(imp.to)
      if (from && to && to.rank < from.rank) upward.push(`${rel} -> ${imp.to} (${LAYERS[from.rank].name} imports ${LAYERS[to.rank].name})`)
      const a = roomOf(rel)
      const b = roomOf(imp.to)
      if (a !== b) {
        if (!rooms.has(a)) rooms.set(a, new Set())
        rooms.get(a).add(b)
      }
    }
    edges.set(rel, [...targets])
  }
  const folderPairs = []
  for (const [a, outs] of rooms) {
    for (const b of outs) if (a < b && rooms.get(b)?.has(a)) folderPairs.push(`${a} <-> ${b}`)
  }
  const circles = circlesOf(files, edges).map((c) => c.join(' <-> '))
  return { files: files.length, circles, upward: [...new Set(upward)].sort(), folderPairs: folderPairs.sort(), unplaced, unresolved, lazy, lazyWithoutWhy: [...new Set(lazyWithoutWhy)].sort() }
}

// What --check holds the tree to: none of these beyond the known list, and no file outside a layer.
const CHECKED = ['circles', 'upward', 'folderPairs', 'lazyWithoutWhy']

function main (argv) {
  const at = argv.indexOf('--root')
  if (at !== -1) ROOT = path.resolve(argv[at + 1] ?? '.')
  const KNOWN_FILE = path.join(ROOT, KNOWN_NAME)
  const report = buildReport()
  if (argv.includes('--write-known')) {
    const known = Object.fromEntries(CHECKED.map((k) => [k, report[k]]))
    fs.mkdirSync(path.dirname(KNOWN_FILE), { recursive: true })
    fs.writeFileSync(KNOWN_FILE, JSON.stringify(known, null, 2) + '\n')
  }
  if (argv.includes('--json')) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n')
  } else {
    const lines = [`import graph of ${report.files} files: ${report.circles.length} circles, ${report.upward.length} upward imports, ` +
      `${report.folderPairs.length} pairs of folders importing each other, ${report.lazy.length} requires inside functions ` +
      `(${report.lazyWithoutWhy.length} without a "lazy:" why), ` +
      `${report.unplaced.length} files outside a layer, ${report.unresolved.length} paths that name no file`]
    if (!argv.includes('--check')) for (const k of [...CHECKED, 'unplaced', 'unresolved']) for (const line of report[k]) lines.push(`  ${k}: ${line}`)
    process.stdout.write(lines.join('\n') + '\n')
  }
  if (!argv.includes('--check')) return 0
  const known = fs.existsSync(KNOWN_FILE) ? JSON.parse(fs.readFileSync(KNOWN_FILE, 'utf8')) : {}
  const fresh = []
  for (const k of CHECKED) {
    const allowed = new Set(known[k] || [])
    for (const line of report[k]) if (!allowed.has(line)) fresh.push(`new ${k}: ${line}`)
  }
  for (const rel of report.unplaced) fresh.push(`file outside a layer: ${rel} (add its folder to LAYERS in scripts/import-graph.js)`)
  for (const line of report.unresolved) fresh.push(`a path that names no file: ${line}`)
  for (const line of fresh) process.stderr.write(`import-graph: ${line}\n`)
  if (fresh.length) {
    process.stderr.write('import-graph: imports only go down (docs/architecture.md, "Layers"); a lower layer that needs a higher one is handed a function;\n' +
      'a require inside a function says why in a "// lazy: ..." comment on its line or right above it\n')
    return 1
  }
  return 0
}

module.exports = { memberOf, LAYERS }
if (require.main === module) process.exitCode = main(process.argv.slice(2))
