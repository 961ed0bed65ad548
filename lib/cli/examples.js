'use strict'
// The examples every command's --help ends with, rendered the way
// lib/cli/help.js renders them for load and merge. `$0` stands for the
// command as it was called (`node run.js` or `benchrig run`).
const { wrap } = require('./help.js')

/** @type {Record<string, [string, string][]>} */
const EXAMPLES = {
  run: [
    ['$0 buffers', 'every benchmark file of buffers/, one line per configuration'],
    ['$0 --filter concat --set len=64 --format csv buffers > out.csv', 'the files whose name contains "concat", with len=64 only, as CSV'],
    ['$0 --test http', 'each file of http/ once with one small configuration (a smoke test)']
  ],
  doctor: [
    ['$0', 'the CPUs\' speeds over 4 seconds, steal, load, limits, and the design that suits the machine now'],
    ['$0 --json --seconds 2', 'the same as JSON, after 2 seconds']
  ],
  compare: [
    ['$0 --old ./node-main --new ./node-pr --runs 30 --output out.csv buffers', '30 interleaved old/new pairs of every buffers/ file, rows written as they come'],
    ['$0 --old ./node-main --new ./node-pr --runs auto --filter tostring --analyze buffers', 'as many pairs as the precision needs, then the verdicts'],
    ['$0 --resume out.csv --old ./node-main --new ./node-pr --runs 30 buffers', 'continue a run cut short by Ctrl-C or a crash'],
    ['$0 --old-ref main --new-ref HEAD --cmd "npm run bench" --runner tinybench --runs seq', 'your own tinybench benchmark on two refs: a verdict per task (docs/runners/)']
  ],
  scatter: [
    ['$0 --runs 10 --set encoding=utf8 buffers/buffer-tostring.js > scatter.csv', 'one file 10 times; then Rscript scatter.R --xaxis len < scatter.csv'],
    ['$0 --runs 10 --analyze --xaxis len buffers/buffer-tostring.js', 'mean and median with CIs per len value, and the change between them']
  ],
  analyze: [
    ['$0 out.csv', 'change, CI, p, q and a verdict per configuration of a compare CSV'],
    ['$0 --max-regression 5 out.csv', 'a CI gate: exit 1 when a configuration is shown to be over 5% slower'],
    ['$0 --format markdown --plot pr.svg out.csv', 'a table and a figure for a pull request']
  ],
  bisect: [
    ['$0 --binaries ./node-a,./node-b,./node-c,./node-d --filter tostring buffers', 'the first of the four builds that is slower than node-a (node-d is known to be)'],
    ['$0 --node 22.0.0..22.12.0 --filter concat --set len=64 buffers', 'the first Node release of the range that is slower, each installed from npm into the cache']
  ],
  serve: [
    ['$0 --port 8080', 'a target on http://127.0.0.1:8080 (Ctrl+C stops it)'],
    ['$0 --h2c --delay 1-5 --port 0', 'HTTP/1.1 and h2c on a free port, each answer 1 to 5 ms late']
  ],
  calibrate: [
    ['$0 buffers/buffer-concat.js', 'an n per configuration for a 5% coefficient of variation, as calibrate-n.js proposes it'],
    ['$0 --cv-threshold 0.02 --json buffers/buffer-tostring.js', 'a 2% target, the steps and proposals as JSON'],
    ['$0 --measure instructions --set encoding=utf8 buffers/buffer-tostring.js', 'the n at which 10x more iterations move no instruction rate by 1% (valgrind)']
  ],
  history: [
    ['$0 add --label v22.12.0 results.ndjson', 'keep a run\'s results under a label (NDJSON names the node version itself)'],
    ['$0 changes --file buffers', 'the change points of every series of buffers/, with the size of each step and its CI'],
    ['$0 show --file buffers/buffer-concat.js --configuration len=64 --from v20.0.0', 'one configuration\'s values per label'],
    ['$0 report --html site/', 'a static site of every series: trends, change points, regressions (open site/index.html)']
  ],
  plan: [
    ['$0 --next results/*.csv > round2.json', 'how many more pairs each file needs, as the next round of a sharded comparison']
  ],
  // load renders its own examples (lib/cli/load.js) and appends these
  load: [
    ['$0 --stages 30s:1000,1m:1000,10s:0 --interval 1000 http://127.0.0.1:3000/', 'ramp to 1000 req/s over 30 s, hold a minute, ramp down; a row per second with the planned count'],
    ['$0 --stages-connections 10s:50,30s:50 http://127.0.0.1:3000/', 'open 5 more connections a second up to 50, then hold them for 30 s (no rate)'],
    ["$0 -R 500 -d 30 --threshold 'p99<50ms' --threshold 'errors<0.1%' http://127.0.0.1:3000/", 'exit 1, naming each one, when p99 is 50 ms or more or 0.1% of requests fail; --threshold-abort stops at once']
  ]
}

/**
 * The help text of a command with its examples appended.
 * @param {string} text the command's usage and options
 * @param {keyof EXAMPLES} command
 * @param {string} prog how the command was called, e.g. 'node run.js' or 'benchrig run'
 */
function withExamples (text, command, prog) {
  const lines = ['', 'Examples:']
  for (const [cmd, what] of EXAMPLES[command] ?? []) {
    lines.push(`  ${cmd.replace('$0', prog)}`, ...wrap(what, 94).map((l) => `      ${l}`))
  }
  return `${text.replace(/\n+$/, '')}\n${lines.join('\n')}\n`
}

module.exports = { withExamples, EXAMPLES }
