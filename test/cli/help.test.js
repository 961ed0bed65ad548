'use strict'
// One help system, as a new user meets it: every command's --help (through
// `benchrig <command> --help`, `benchrig help <command>` and the Node-style
// entry points) ends with examples, names the command as it was called, and
// is kept as a snapshot so a change of the help is a reviewed change.
// Regenerate after a deliberate change: npx tap --snapshot test/cli/help.test.js
const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const COMMANDS = ['run', 'compare', 'scatter', 'analyze', 'load', 'merge', 'report', 'serve', 'plan', 'calibrate', 'bisect', 'history', 'doctor']

function cli (args, entry = 'bin/benchrig.js') {
  // not a TTY: help is laid out for 100 columns
  return spawnSync(process.execPath, [path.join(ROOT, entry), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60000 })
}

for (const command of COMMANDS) {
  t.test(`benchrig ${command} --help`, async (t) => {
    const r = cli([command, '--help'])
    t.equal(r.status, 0, r.stderr)
    t.equal(r.stderr, '')
    t.match(r.stdout, new RegExp(`^Usage: (benchrig ${command} |calibrate-n\\.js .*\\n +benchrig ${command} )`), 'names the command as called')
    t.match(r.stdout, /\nExamples:\n {2}benchrig /, 'ends with examples')
    t.notMatch(r.stdout, /\[string\]|\[boolean\]/, 'no type noise')
    t.ok(r.stdout.split('\n').every((l) => l.length <= 100), 'fits 100 columns')
    t.equal(cli(['help', command]).stdout, r.stdout, '`benchrig help CMD` is the same text')
    t.matchSnapshot(r.stdout, 'help text')
  })
}

t.test('the Node-style entry points name themselves in usage and examples', async (t) => {
  for (const entry of ['run.js', 'compare.js', 'scatter.js']) {
    const r = cli(['--help'], entry)
    t.equal(r.status, 0)
    t.match(r.stdout, new RegExp(`^Usage: ${entry.replace('.', '\\.')} `))
    t.match(r.stdout, new RegExp(`\\n {2}node ${entry.replace('.', '\\.')} `), 'examples use node ENTRY')
  }
})

t.test('--version on the command line and on the subcommands that load with yargs', async (t) => {
  const version = require('../../package.json').version
  for (const args of [['--version'], ['load', '--version'], ['load', '-V'], ['merge', '--version']]) {
    const r = cli(args)
    t.equal(r.status, 0, args.join(' '))
    t.equal(r.stdout, `${version}\n`)
  }
})

t.test('unknown commands and flags get the nearest known one', async (t) => {
  const cmd = cli(['lod'])
  t.equal(cmd.status, 2)
  t.match(cmd.stderr, /^benchrig: unknown command "lod" \(did you mean "load"\?\)/)
  const cases = [
    [['load', '--conections', '5', 'http://127.0.0.1:1/'], /unknown option --conections \(did you mean --connections\?\)/],
    [['run', '--fitler', 'x', 'buffers'], /unknown option --fitler \(did you mean --filter\?\)/],
    [['analyze', '--treshold', '2', 'x.csv'], /unknown option --treshold \(did you mean --threshold\?\)/],
    [['merge', '--jsn', 'a.json'], /unknown option --jsn \(did you mean --json\?\)/]
  ]
  for (const [args, re] of cases) {
    const r = cli(args)
    t.equal(r.status, 2, args.join(' '))
    t.match(r.stderr, re)
  }
  const far = cli(['load', '--zzzzqqq', 'http://127.0.0.1:1/'])
  t.match(far.stderr, /unknown option --zzzzqqq; see benchrig load --help/, 'no suggestion when nothing is near')
})
