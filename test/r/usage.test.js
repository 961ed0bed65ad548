'use strict'
// The R scripts' command lines: --help prints the usage line the guide shows,
// an unknown argument and an empty stdin (a forgotten "< file.csv") are
// errors with exit code 2 that name the script, without R's traceback.
const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { needTool } = require('../helpers/tools.js')

const ROOT = path.join(__dirname, '..', '..')
const USAGE = {
  'compare.R': /^usage: Rscript compare\.R \[--plot FILE\] \[--format table\|csv\] < compare\.csv/,
  'scatter.R': /^usage: Rscript scatter\.R --xaxis V \[--category V\] \[--log\] \[--plot FILE\] < scatter\.csv/,
  'bar.R': /^usage: Rscript bar\.R --plot FILE \[--meta FILE\.ndjson\] \[--title TEXT\] \[--threshold PCT\] \[--alpha A\] \[--format table\|csv\] < compare\.csv/
}
// The arguments each script needs before it reads stdin.
const REQUIRED = { 'compare.R': [], 'scatter.R': ['--xaxis', 'len'], 'bar.R': ['--plot', 'x.png'] }

const rscript = (script, args, input = '') => spawnSync('Rscript', [path.join(ROOT, script), ...args], { input, encoding: 'utf8', cwd: ROOT })

for (const script of Object.keys(USAGE)) {
  t.test(`${script}: usage line, unknown argument, empty stdin`, (t) => {
    if (!needTool(t, 'Rscript')) return t.end()
    const help = rscript(script, ['--help'])
    t.equal(help.status, 0)
    t.match(help.stdout, USAGE[script])
    const bad = rscript(script, ['--bogus'])
    t.equal(bad.status, 2)
    t.match(bad.stderr, new RegExp(`^${script.replace('.', '\\.')}: (unknown|bad) argument --bogus\\n`))
    t.match(bad.stderr, /usage: Rscript /)
    const empty = rscript(script, REQUIRED[script], '')
    t.equal(empty.status, 2, empty.stderr)
    t.match(empty.stderr, new RegExp(`^${script.replace('.', '\\.')}: cannot read a CSV on stdin \\(.*\\); pipe a file made by`))
    t.notMatch(empty.stderr, /Calls:|Execution halted/, 'no R traceback')
    t.end()
  })
}
