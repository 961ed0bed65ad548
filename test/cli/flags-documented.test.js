'use strict'
// Every flag a command's --help offers is in the user docs, so a flag added
// to a spec without a line of docs fails here rather than in a user's hands.
// `benchrig load`'s flags come from one spec (lib/cli/load.js HELP): each is
// in its --help, with its short alias, and in docs/load.md's pages; the other
// commands' flags are read off their --help and looked up in the pages that
// document that command.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const DOCS = path.join(ROOT, 'docs')
const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8')
const allDocs = () => ['README.md', ...fs.readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...fs.readdirSync(path.join(DOCS, 'runners')).filter((f) => f.endsWith('.md')).map((f) => `docs/runners/${f}`)]

// the pages that document a command's flags (the others: any page)
const PAGES = {
  load: ['docs/load.md'],
  compare: ['docs/compare.md', 'docs/scale.md', 'docs/history.md', 'docs/runners/README.md'],
  history: ['docs/history.md'],
  serve: ['docs/serve.md']
}
const COMMANDS = ['run', 'compare', 'scatter', 'analyze', 'load', 'merge', 'report', 'serve', 'plan', 'calibrate', 'bisect', 'history', 'doctor']
// every command has these; the help line is their documentation
const GENERIC = new Set(['--help', '--version'])

const camel = (kebab) => kebab.replace(/-([a-z])/g, (m, c) => c.toUpperCase())
/**
 * True when text names the flag: `--flag` as written, in autocannon's camel
 * case (`--socketPath`), or as `--no-flag` (a flag on by default is documented
 * by how to turn it off).
 */
function documents (text, flag) {
  const name = flag.slice(2)
  return [name, camel(name), `no-${name}`].some((n) => new RegExp(`--${n}(?![A-Za-z0-9-])`).test(text))
}

function helpOf (command) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'benchrig.js'), command, '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60000 })
  if (r.status !== 0) throw new Error(`benchrig ${command} --help exited ${r.status}: ${r.stderr}`)
  return r.stdout
}

t.test('benchrig load: every flag of the spec is in --help (with its alias) and in docs/load.md', async (t) => {
  const { HELP } = require('../../lib/cli/load.js')
  const help = helpOf('load')
  const doc = read('docs/load.md')
  // a one-letter name is a short flag (-n), documented beside its long twin
  const options = HELP.options.filter((o) => !o.hidden && o.name.length > 1 && !GENERIC.has(`--${o.name}`))
  t.ok(options.length > 50, `the spec has the load flags (${options.length})`)
  const undocumented = []
  for (const o of options) {
    t.ok(documents(help, `--${o.name}`), `--${o.name} in --help`)
    if (o.alias) t.match(help, new RegExp(`(^|\\s)-${o.alias}, --${o.name}\\b`, 'm'), `-${o.alias} beside --${o.name} in --help`)
    if (!documents(doc, `--${o.name}`)) undocumented.push(`--${o.name}`)
  }
  t.same(undocumented, [], 'every load flag is in docs/load.md')
})

for (const command of COMMANDS) {
  t.test(`benchrig ${command}: every flag of --help is in its docs`, async (t) => {
    const help = helpOf(command)
    const flags = [...new Set(help.match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? [])].filter((f) => !GENERIC.has(f))
    t.ok(flags.length > 0, `--help offers flags (${flags.length})`)
    const text = (PAGES[command] ?? allDocs()).map(read).join('\n')
    t.same(flags.filter((f) => !documents(text, f)), [], `in ${PAGES[command]?.join(', ') ?? 'docs/ or README.md'}`)
  })
}

// compare's help is a hand-kept text beside its option table: they must agree
t.test('benchrig compare: every option it parses is in its --help, and every flag of the help is an option', async (t) => {
  const { OPTIONS } = require('../../lib/cli/compare.js')
  const help = helpOf('compare')
  const inHelp = new Set(help.match(/(?<![\w-])--[a-z][a-z0-9-]*/g))
  // flags of the programs the help quotes: npm ci's, node's and benchrig plan's
  const OTHERS = new Set(['--omit', '--cpu-prof', '--next'])
  const option = (f) => Object.hasOwn(OPTIONS, f.slice(2)) || (f.startsWith('--no-') && OPTIONS[f.slice(5)]?.type === 'boolean')
  t.same(Object.keys(OPTIONS).filter((k) => !inHelp.has(`--${k}`) && !(k.startsWith('no-') && inHelp.has(`--${k}`))), [], 'every option is in --help')
  t.same([...inHelp].filter((f) => !option(f) && !OTHERS.has(f) && !GENERIC.has(f)), [], 'every flag of --help is an option')
})

t.test('the check fails on a flag no page names', async (t) => {
  t.notOk(documents('use --socketPath or --no-progress', '--no-such-flag'))
  t.ok(documents('use --socketPath P', '--socket-path'))
  t.ok(documents('hide it with --no-progress', '--progress'))
  t.notOk(documents('--progress-bar', '--progress'), 'a longer flag is not the flag')
})
