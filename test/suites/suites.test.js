'use strict'
// Every benchmark of every category of this repository runs in --test mode,
// so that none can rot. Categories are discovered, so suites added later are
// covered without touching this file. HTTP suites use their default load
// generator; one that is an external tool (h2load for http2/) must be
// installed, or the file is skipped (a failure under BENCHRIG_REQUIRE_TOOLS=1).
// A load that completed no request on a busy machine is retried once.
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { listCategories, findBenchmarks } = require('../../lib/harness/discover.js')
const { collectLoad } = require('../harness/fixtures/helpers.js')
const { needTool } = require('../helpers/tools.js')

const REPO = path.join(__dirname, '..', '..')
// Categories whose default generator is an external tool.
const NEEDS = { http2: 'h2load' }

const categories = listCategories(REPO)

test('the repository has benchmark categories, buffers among them', async (t) => {
  t.ok(categories.includes('buffers'), `categories: ${categories.join(', ')}`)
  t.ok(findBenchmarks({ root: REPO, categories: ['buffers'] }).length >= 6, 'buffers has at least 6 benchmarks')
})

for (const bench of findBenchmarks({ root: REPO, categories })) {
  test(`${bench.name} runs in --test mode`, async (t) => {
    const tool = NEEDS[bench.category]
    if (tool && !needTool(t, tool)) return
    const { errors, reports, output, exitCode } = await collectLoad(t, bench.file, { args: ['--test'] })
    if (errors.length === 1 && /not supported/i.test(errors[0].message) && bench.category === 'http2') {
      t.skip(`${bench.name}: the default benchmarker refuses HTTP/2 cleanly: ${errors[0].message}`)
      return
    }
    t.same(errors, [], 'no configuration failed')
    t.equal(exitCode, 0, `exit code 0${output ? `; output:\n${output}` : ''}`)
    // Node's test mode: one configuration of every group (byGroups files),
    // else exactly one
    const groups = new Set(reports.map((rep) => rep.conf && rep.conf.group))
    t.ok(reports.length >= 1, 'at least one configuration ran')
    t.equal(reports.length, groups.size, 'exactly one configuration per group in --test mode')
    if (/byGroups:\s*true/.test(fs.readFileSync(bench.file, 'utf8'))) t.ok(groups.size >= 2, `every group ran: ${[...groups].join(', ')}`)
    for (const rep of reports) {
      t.equal(rep.name, bench.name)
      t.ok(typeof rep.rate === 'number' && Number.isFinite(rep.rate) && rep.rate >= 0, 'a numeric rate')
    }
  })
}
