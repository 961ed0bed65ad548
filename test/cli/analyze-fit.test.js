'use strict'
// benchrig analyze's text fits 100 columns: long configuration names go on a
// line of their own, prose is wrapped, warnings come one line per kind with a
// count, and the pairs column is labelled as such; --wide keeps one line per
// configuration, the full verdict sentences and every warning.
const t = require('tap')
const { analyze } = require('../../lib/stats/analyze.js')
const { formatAnalysisText } = require('../../lib/report/analysis-text.js')
const { createRng } = require('../../lib/prng.js')

/** A compare-shaped suite: `configs` configurations with Node-length names, `pairs` pairs, a few ms per run. */
function suite ({ configs, pairs, seed = 7 }) {
  const rng = createRng(seed)
  const rows = []
  for (let c = 0; c < configs; c++) {
    const configuration = `type="buffer" len=${1024 * (c + 1)} chunks=4 chunkedEnc=1 connections=500 benchmarker="wrk" duration=5`
    for (let p = 1; p <= pairs; p++) {
      for (const binary of ['old', 'new']) {
        const rate = 1000 * (1 + 0.02 * (rng.uniform() - 0.5)) * (binary === 'new' && c === 0 ? 1.05 : 1)
        rows.push({ binary, filename: 'http/simple.js', configuration, rate, time: 0.004, pair: p, seed: 1 })
      }
    }
  }
  return rows
}

const widest = (text) => Math.max(...text.split('\n').map((l) => l.length))

t.test('the default text fits 100 columns; long names on lines of their own', async (t) => {
  const a = analyze(suite({ configs: 8, pairs: 8 }))
  const text = formatAnalysisText(a)
  t.ok(widest(text) <= 100, `widest line ${widest(text)}`)
  const lines = text.split('\n')
  t.match(lines[0], /^ +pairs +change +95% CI +p +q +verdict$/, 'the column says what its numbers count')
  // the name (104 characters here) on lines of its own, wrapped at a space,
  // then its numbers on the next line, indented
  const at = lines.findIndex((l) => l.startsWith('http/simple.js type="buffer" len=1024 chunks=4'))
  t.ok(at > 0, 'the name starts a line')
  t.equal(`${lines[at]} ${lines[at + 1].trim()}`, 'http/simple.js type="buffer" len=1024 chunks=4 chunkedEnc=1 connections=500 benchmarker="wrk" duration=5', 'the whole name, wrapped once')
  t.match(lines[at + 1], /^ {6}\S/, 'the rest of the name indented')
  t.match(lines[at + 2], /^ {2,}8 +[+-]\d+\.\d\d% +\[/, 'its numbers on the next line')
  t.notMatch(text, /\d+p {2}/, 'no "8p" cells')
})

t.test('one warning line per kind, with a count; --wide lists each', async (t) => {
  const a = analyze(suite({ configs: 8, pairs: 8 }))
  const kinds = new Set(a.warnings.map((w) => w.kind))
  t.ok(a.warnings.length > kinds.size, `several warnings of one kind (${a.warnings.length} warnings, ${kinds.size} kinds)`)
  const text = formatAnalysisText(a)
  const block = text.split('Warnings (one line per kind; --wide lists each):\n')[1].split('\n\n')[0]
  const starts = block.split('\n').filter((l) => /^ {2}\S/.test(l))
  t.equal(starts.length, kinds.size, 'one line per kind')
  const many = [...kinds].find((k) => a.warnings.filter((w) => w.kind === k).length > 1)
  const count = a.warnings.filter((w) => w.kind === many).length
  t.match(block, new RegExp(`^ {2}${many} \\(${count} configurations, e\\.g\\. http/simple\\.js `, 'm'))
  const wide = formatAnalysisText(a, { wide: true })
  t.equal(wide.split('Warnings:\n')[1].split('\n\n')[0].split('\n').filter((l) => /^ {2}\S/.test(l)).length, a.warnings.length, '--wide: every warning')
})

t.test('--wide: one line per configuration with the full verdict sentence', async (t) => {
  const a = analyze(suite({ configs: 3, pairs: 8 }))
  const wide = formatAnalysisText(a, { wide: true })
  const row = wide.split('\n').find((l) => l.startsWith('http/simple.js type="buffer" len=2048'))
  t.match(row, /len=2048 .* +8 +[+-]\d+\.\d\d% +\[.*\] +[\d.e-]+ +[\d.e-]+ +\**\s*(faster|slower|no change|inconclusive)/, 'name and numbers on one line')
  t.ok(widest(wide) > 100, 'wider than the default')
})
