'use strict'
// The PR comment as a reader sees it: rendered with GitHub's block rules
// (test/helpers/gfm.js) and opened in headless Chromium, whose DOM is then
// read: every table row has its header's cells, no Markdown is left raw
// (pipes, **, a delimiter row), each <details> has its summary and rendered
// content, both sides are named, the warnings are one item per kind, and
// nothing names a path of the machine.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { parseCsvRecords } = require('../../lib/record/csv.js')
const { analyze } = require('../../lib/stats/analyze.js')
const { formatGithubComment } = require('../../lib/report/github.js')
const { renderGfm, cells } = require('../helpers/gfm.js')
const { visitPages } = require('../helpers/chromium-page.js')

const FIXTURE = path.join(__dirname, '..', 'r', 'fixtures', 'paired.csv')

// compare --old-ref/--new-ref's metadata: two commits with their tags, one node
const META = {
  old: { path: '/home/me/.nvm/node', version: 'v22.11.0', sha256: 'c'.repeat(64), binary_sha256: 'a'.repeat(64), ref: 'main', commit: '1'.repeat(40), describe: 'v1.4.0' },
  new: { path: '/home/me/.nvm/node', version: 'v22.11.0', sha256: 'd'.repeat(64), binary_sha256: 'a'.repeat(64), ref: 'feature|x', commit: '2'.repeat(40), describe: 'v1.4.0-3-g2222222' },
  cpu: { model: 'Example CPU', count: 2 },
  os: { platform: 'linux', release: '6.1.0', arch: 'x64' },
  root: '/home/me/project/benchmark'
}

t.test('the comment renders as GitHub shows it', async (t) => {
  const rows = parseCsvRecords(fs.readFileSync(FIXTURE, 'utf8')).records
  const a = analyze(/** @type {any} */ (rows), { maxRegression: 5 })
  // warnings of three kinds, one of them many times
  a.warnings = [
    ...['n=1', 'n=2', 'n=3'].map((c) => ({ filename: 'buffers/a.js', configuration: c, kind: 'high-variance', message: 'the new/old ratio varies by 12.0% between pairs' })),
    { filename: 'buffers/b.js', configuration: 'type="slow"', kind: 'drift', message: 'the new/old ratio drifts' },
    { filename: 'buffers/b.js', configuration: 'type="fast"', kind: 'something-new', message: 'a kind without a sentence of its own: its message. More detail' }
  ]
  const slow = a.results.find((r) => r.verdict === 'slower')
  const trends = new Map([[`${slow.filename}\u0000${slow.configuration}`, {
    points: ['v1.2.0', 'v1.3.0', 'v1.4.0', 'v1.4.0-3-g2222222'].map((label, i) => ({ label, value: i < 2 ? 100 : 89 })),
    changes: [{ label: 'v1.4.0', change: -11, ci: [-13, -9] }]
  }]])
  const md = formatGithubComment(/** @type {any} */ (a), { rows, meta: META, trends })
  t.notMatch(md, /\/home\/me/, 'no path of the machine in the Markdown')
  t.match(md, /\*\*Compared:\*\* old `v1\.4\.0` \(commit `111111111111`, ref `main`\) → new `v1\.4\.0-3-g2222222` \(commit `222222222222`, ref `feature\|x`\)/)
  t.match(md, /- node: v22\.11\.0 \(sha256 `aaaaaaaaaaaa`\), both sides/, 'the shared node once, by the binary\'s hash')
  t.equal(cells('| a | `b\\|c` | d |').length, 3, 'the renderer splits as GFM does')

  const dir = t.testdir()
  const page = path.join(dir, 'comment.html')
  fs.writeFileSync(page, `<!doctype html><meta charset="utf-8"><title>comment</title><body>${renderGfm(md)}</body>`)
  const evaluate = `(() => {
    const tables = [...document.querySelectorAll('table')].map((tb) => ({
      head: tb.querySelectorAll('thead th').length,
      rows: [...tb.querySelectorAll('tbody tr')].map((tr) => tr.children.length),
      empty: [...tb.querySelectorAll('tbody tr')].filter((tr) => [...tr.children].every((c) => c.textContent.trim() === '')).length
    }))
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const raw = []
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const s = n.textContent
      // unrendered strong (**x** keeps its stars; q's "***" stars are meant literally), pipes of a table, a delimiter row
      if (/\\*\\*[\\w:]|[\\w:]\\*\\*|^\\s*\\|.*\\|\\s*$|\\|---/m.test(s)) raw.push(s.trim().slice(0, 80))
    }
    const details = [...document.querySelectorAll('details')].map((d) => ({
      summary: d.querySelector('summary')?.textContent ?? '',
      blocks: d.querySelectorAll('table, ul, p').length
    }))
    const compared = [...document.querySelectorAll('p')].find((p) => p.textContent.startsWith('Compared:'))
    const warnings = [...document.querySelectorAll('details')].find((d) => /^Warnings/.test(d.querySelector('summary').textContent))
    return {
      tables, raw, details,
      compared: compared ? [...compared.querySelectorAll('code')].map((c) => c.textContent) : null,
      warnings: warnings ? [...warnings.querySelectorAll('li')].map((li) => li.textContent) : null,
      text: document.body.innerText
    }
  })()`
  const [seen] = await visitPages(dir, [{ file: page, width: 1000, height: 800, evaluate }])
  t.same(seen.problems, [], 'nothing logged')
  const v = seen.value
  t.ok(v.tables.length >= 3, `the short tables, the trend and the full table: ${v.tables.length}`)
  for (const [i, tb] of v.tables.entries()) {
    t.ok(tb.rows.length > 0, `table ${i}: has rows`)
    t.ok(tb.rows.every((n) => n === tb.head), `table ${i}: every row has the header's ${tb.head} cells (${tb.rows})`)
    t.equal(tb.empty, 0, `table ${i}: no empty row`)
  }
  t.same(v.raw, [], 'no Markdown left raw')
  t.same(v.details.map((d) => d.summary.replace(/\d+/g, 'N')), ['All N configurations', 'Design', 'Environment', 'Warnings (N, N kinds)'])
  t.ok(v.details.every((d) => d.blocks > 0), 'each <details> has rendered content')
  t.same(v.compared, ['v1.4.0', '111111111111', 'main', 'v1.4.0-3-g2222222', '222222222222', 'feature|x'], 'both sides: tag or describe, commit, ref')
  t.equal(v.warnings.length, 3, 'one item per kind')
  t.match(v.warnings[0], /^high-variance \(3\): The new\/old ratio varies a lot between pairs, .*\(n=\.\.\.\)\. buffers\/a\.js n=1, buffers\/a\.js n=2, buffers\/a\.js n=3\.$/)
  t.match(v.warnings[2], /^something-new \(1\): a kind without a sentence of its own buffers\/b\.js type="fast"\.$/)
  t.match(v.text, /v1\.2\.0 … v1\.4\.0-3-g2222222 \(4\)/, 'the trend oldest first, by display names')
  t.notMatch(v.text, /\/home\/me|--repo/, 'no path, no flag analyze lacks')
})
