'use strict'
// The HTML report of a scenarios run (issue 27: "the HTML report and JSON
// carry per-scenario results"): a Scenarios section with what each scenario
// ran and a row of its results, its req/s and p99 over time as one line per
// scenario on one time axis with a legend, and every threshold named with
// its scenario. Rendered in headless Chromium: nothing logged or fetched,
// every figure read back from the DOM equal to the JSON's, the scenario
// lines drawn in their colours.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { renderHtml } = require('../../lib/report/html/index.js')
const { scenariosModel, pointsOf } = require('../../lib/report/html/scenarios.js')
const { main: report } = require('../../lib/cli/report.js')
const { needTool } = require('../helpers/tools.js')
const { visitPages } = require('../helpers/chromium-page.js')
const { decodePng } = require('../helpers/png.js')
const { scenarioResult, scenarioFile } = require('../helpers/scenario-result.js')
const { statusTarget } = require('../helpers/loopback.js')
const { spawnOutput } = require('../helpers/spawn-output.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

// one fixture for the file (two real runs)
let shared
const fixture = async (t) => (shared ??= await scenarioResult(t))

const at = (obj, p) => p.split('.').reduce((o, k) => (o === undefined ? undefined : o[k]), obj)

const READ_PAGE = `({
  figures: [...document.querySelectorAll('[data-json]')].map((e) => [e.dataset.json, e.textContent]),
  charts: [...document.querySelectorAll('svg.chart')].map((s) => s.getAttribute('class')),
  series: Object.fromEntries(['scenario-rps-over-time', 'scenario-latency-over-time'].map((c) =>
    [c, [...document.querySelectorAll('svg.' + c + ' [data-series]')].map((e) => e.dataset.series)])),
  legend: [...document.querySelectorAll('p.legend')].map((p) => p.textContent.trim()),
  thresholds: [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Thresholds').nextElementSibling.innerText,
  verdicts: [...document.querySelectorAll('td .pass, td .fail')].map((e) => e.textContent),
  box: (({ left, top, right, bottom }) => ({ left, top: top + scrollY, right, bottom: bottom + scrollY }))(document.querySelector('svg.scenario-rps-over-time').getBoundingClientRect())
})`

t.test('the points of a scenario: from its interval rows on the run\'s time axis, else from its seconds', async (t) => {
  const rows = { intervals: [{ start: 2000, ms: 100, count: 10, p99: 3 }, { start: 2100, ms: 100, elapsedMs: 50, count: 5, p99: 4 }, { start: 2200, ms: 100, count: 0, p99: 0 }] }
  t.same(pointsOf(rows, 1000), { source: 'intervals', rps: [[1.1, 100], [1.15, 100], [1.3, 0]], p99: [[1.1, 3], [1.15, 4]] }, 'a row without responses has no latency point')
  t.same(pointsOf({ perSecond: { start: 3000, ms: 1000, requests: [7, null, 9] } }, 1000), { source: 'perSecond', rps: [[3, 7], [5, 9]], p99: [] }, 'a second nobody sampled is no point')
  t.same(pointsOf({}, 0), { source: 'none', rps: [], p99: [] })
  t.equal(scenariosModel({ requests: {} }), undefined, 'a plain result has no Scenarios section')
})

t.test('without interval rows: the section says what the curves need', async (t) => {
  // the fixture without its interval rows and whole seconds (as runs shorter than a second without --interval)
  const drop = ({ intervals: _, ...rest }) => ({ ...rest, perSecond: { ...rest.perSecond, requests: [], bytes: [] } })
  const full = await fixture(t)
  const r = { ...drop(full), scenarios: Object.fromEntries(Object.entries(full.scenarios).map(([name, s]) => [name, drop(s)])) }
  const html = renderHtml(r, { version: '1.2.3' })
  t.match(html, /<h2>Scenarios<\/h2>/)
  t.match(html, /The scenarios have no interval rows or per-second samples/)
  t.match(html, /Latency over time by scenario needs interval rows/)
  t.match(html, /<td>startRate 10, timeUnit 1s, preAllocatedVUs 2, stages 2; tags team=shop, flow-step=pay, flow_step=dup<\/td>/, 'parameters and tags')
  t.match(html, /<td class="n">1m30s<\/td>/, 'the planned duration')
  const plain = { ...r }
  delete plain.scenarios
  t.notMatch(renderHtml(plain), /Scenarios|scenario-/, 'a plain run: no section, no scenario column')
})

/** Every [data-json] figure of a page that is a number in the JSON, compared with it. */
function wrongFigures (figures, json) {
  const wrong = []
  for (const [p, shown] of figures) {
    const value = at(json, p)
    if (typeof value === 'number' && Number(shown.replace(/,/g, '')) !== value) wrong.push(`${p}: page ${shown}, JSON ${value}`)
  }
  return wrong
}

t.test('rendered in headless Chromium: the Scenarios section, its curves and thresholds, numbers equal to the JSON', async (t) => {
  const r = await fixture(t)
  const dir = t.testdir({})
  fs.writeFileSync(path.join(dir, 's.json'), JSON.stringify(r))
  t.equal(await report([path.join(dir, 's.json'), '--html', path.join(dir, 's.html')]), 0)
  // and a real benchrig load --scenarios run, as a user runs it
  const base = await statusTarget(t)
  const live = await spawnOutput(process.execPath, [BIN, 'load', '--scenarios', scenarioFile(dir, base), '-j', '--html', path.join(dir, 'live.html'), `${base}/`])
  t.equal(live.code, 1, 'checkout\'s threshold fails the run')
  const liveJson = JSON.parse(live.stdout)
  const html = fs.readFileSync(path.join(dir, 's.html'), 'utf8')
  t.notMatch(html, /<script|<link|<img|@import|url\(|https?:\/\/(?!127\.0\.0\.1|www\.w3\.org\/2000\/svg)/i, 'self-contained')
  if (!needTool(t, 'chromium')) return
  const [page, livePage] = await visitPages(dir, [
    { file: path.join(dir, 's.html'), width: 900, height: 2000, evaluate: READ_PAGE },
    { file: path.join(dir, 'live.html'), width: 900, height: 2000, evaluate: READ_PAGE }
  ])
  t.same(page.problems, [], 'nothing logged')
  t.same(page.requests.map((u) => new URL(u).protocol), ['file:'], 'nothing fetched')
  const v = page.value
  t.same(v.charts, ['chart scenario-rps-over-time', 'chart scenario-latency-over-time', 'chart percentile-plot', 'chart latency-over-time', 'chart rps-over-time'])
  t.same(v.series['scenario-rps-over-time'], ['all scenarios', 'browse', 'checkout'], 'req/s: the run\'s line and one per scenario')
  t.same(v.series['scenario-latency-over-time'], ['all scenarios', 'browse', 'checkout'], 'p99: the same')
  t.same(v.legend, ['all scenarios browse checkout', 'all scenarios browse checkout'], 'a legend under each chart')

  const paths = v.figures.map(([p]) => p)
  const wanted = ['browse', 'checkout'].flatMap((name) => [
    ...['requests.total', 'requests.mean', 'latency.p50', 'latency.p90', 'latency.p99', 'latency.max', 'errors', 'non2xx'].map((k) => `scenarios.${name}.${k}`),
    ...r.scenarios[name].thresholds.map((_, i) => `scenarios.${name}.thresholds.${i}.value`)
  ])
  t.same(wanted.filter((p) => !paths.includes(p)), [], 'every scenario figure is in the page')
  t.same(wrongFigures(v.figures, r), [], `the ${v.figures.length} figures equal the JSON`)
  t.match(v.thresholds, /overall\trequests>=100\t[\d,]+\tpassed/, 'the run\'s threshold, named overall')
  t.match(v.thresholds, /checkout\tnon2xx<1\t[\d,]+\tfailed/, 'a scenario\'s, named by it')
  t.ok(v.verdicts.includes('pass 2/2') && v.verdicts.includes('FAIL 1/2'), 'each scenario\'s verdict in its row')

  // the req/s chart by scenario draws browse in blue, checkout in orange (their places in the file)
  const img = decodePng(page.png)
  const ink = { blue: 0, orange: 0 }
  for (let y = Math.ceil(v.box.top); y < Math.min(img.height, v.box.bottom); y++) {
    for (let x = Math.ceil(v.box.left); x < Math.min(img.width, v.box.right); x++) {
      const [red, g, b] = img.pixel(x, y)
      // the line's colour or its anti-aliased blend with the white page
      if (b - red > 60 && b > g) ink.blue++
      else if (red > 200 && red - b > 100 && g > 60 && g < 220) ink.orange++
    }
  }
  // a run of a few interval rows may be one point: a dot of radius 3 (some 20 pixels)
  t.ok(ink.blue >= 15 && ink.orange >= 15, `both scenarios' lines drawn in the chart (${ink.blue} blue, ${ink.orange} orange pixels)`)

  // the live run's page: the same section from the engine's own result
  t.same(livePage.problems, [], 'live: nothing logged')
  t.same(livePage.value.series['scenario-rps-over-time'], ['all scenarios', 'browse', 'checkout'], 'live: a line per scenario')
  t.ok(livePage.value.figures.some(([p]) => p === 'scenarios.checkout.non2xx'), 'live: the scenario figures')
  t.same(wrongFigures(livePage.value.figures, liveJson), [], `live: the ${livePage.value.figures.length} figures equal the JSON of -j`)
  t.match(livePage.value.thresholds, /checkout\tnon2xx<1\t30\tfailed/)
})
