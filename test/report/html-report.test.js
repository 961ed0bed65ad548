'use strict'
// The HTML report of a load run (`benchrig load --html`, `benchrig report
// result.json --html`): one self-contained page, checked by rendering it in
// headless Chromium (one launch for every page): nothing logged, nothing
// fetched, a drawn screenshot, and every number printed from the JSON equal
// to the JSON's, read back from the DOM.
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { load } = require('../../index.js')
const { main: report } = require('../../lib/cli/report.js')
const { main: loadMain } = require('../../lib/cli/load.js')
const { renderHtml } = require('../../lib/report/html/index.js')
const { timeline } = require('../../lib/report/html/model.js')
const { linearTicks, decadeLabel } = require('../../lib/report/html/charts.js')
const { needTool } = require('../helpers/tools.js')
const { visitPages } = require('../helpers/chromium-page.js')
const { decodePng } = require('../helpers/png.js')
const { spawnOutput } = require('../helpers/spawn-output.js')
const { statusTarget } = require('../helpers/loopback.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function cli (args) {
  return spawnOutput(process.execPath, [BIN, ...args])
}

const at = (obj, p) => p.split('.').reduce((o, k) => (o === undefined ? undefined : o[k]), obj)

// what the page shows: every [data-json] element's path and text, and the
// SVG charts it drew
const READ_PAGE = `({
  figures: [...document.querySelectorAll('[data-json]')].map((e) => [e.dataset.json, e.textContent]),
  charts: [...document.querySelectorAll('svg.chart')].map((s) => s.getAttribute('class')),
  curve: document.querySelector('svg.percentile-plot path.curve')?.getAttribute('d').length ?? 0,
  height: document.documentElement.scrollHeight
})`

t.test('axes: round linear ticks, percentile labels on the 1/(1-p) decades, the timeline from interval rows or seconds', async (t) => {
  t.same(linearTicks(7.3), [0, 2, 4, 6, 8])
  t.same(linearTicks(0.42), [0, 0.1, 0.2, 0.3, 0.4, 0.5])
  t.same([0, 1, 2, 3, 4, 5].map(decadeLabel), ['0%', '90%', '99%', '99.9%', '99.99%', '99.999%'])
  t.same(timeline({ perSecond: { requests: [10, 20] } }), { source: 'perSecond', rows: [{ t: 1, path: 0, count: 10, rps: 10, errors: 0, eps: 0 }, { t: 2, path: 1, count: 20, rps: 20, errors: 0, eps: 0 }] })
  const rows = timeline({ intervals: [{ start: 1000, ms: 100, count: 5, errors: 1, mean: 1, p50: 1, p90: 2, p99: 3, max: 4 }, { start: 1100, ms: 100, elapsedMs: 50, count: 5, errors: 0, mean: 1, p50: 1, p90: 2, p99: 3, max: 4 }] }).rows
  t.same(rows.map((r) => [r.t, r.rps, r.eps]), [[0.1, 50, 10], [0.15, 100, 0]], 'a partial last row counts its own length')
  t.equal(timeline({ perSecond: { requests: [] } }).source, 'none')
})

t.test('bad input: exit 2 naming the file or flag, before any work, nothing written', async (t) => {
  const dir = t.testdir({ 'other.json': '{"a": 1}', 'two.json': '{"requests": {}}\n{"requests": {}}\n', 'text.txt': 'hello' })
  const out = path.join(dir, 'r.html')
  for (const [args, re] of [
    [[path.join(dir, 'missing.json'), '--html', out], /cannot read .*missing\.json \(ENOENT\)/],
    [[path.join(dir, 'other.json'), '--html', out], /other\.json is not a benchrig load result \(no requests, latency, histogram/],
    [[path.join(dir, 'two.json'), '--html', out], /two\.json holds several results: merge them first/],
    [[path.join(dir, 'text.txt'), '--html', out], /text\.txt is not JSON/],
    [[path.join(dir, 'other.json')], /nothing to write: give --html FILE/],
    [[path.join(dir, 'other.json'), '--html', path.join(dir, 'no', 'r.html')], /--html .*r\.html: the folder .*no does not exist/],
    [['a.json', 'b.json', '--html', out], /give one result file \(2 given\)/]
  ]) {
    await t.rejects(report(args), { exitCode: 2, message: re }, args[0])
  }
  t.notOk(fs.existsSync(out), 'nothing written')
  // benchrig load checks its report files before it connects (port 1: nothing listens)
  await t.rejects(loadMain(['-a', '5', '--html', path.join(dir, 'no', 'x.html'), 'http://127.0.0.1:1/']), { exitCode: 2, message: /--html .*x\.html: the folder .*no does not exist/ })
  await t.rejects(loadMain(['-a', '5', '--prometheus', dir, 'http://127.0.0.1:1/']), { exitCode: 2, message: /--prometheus .*: it is a folder/ })
})

t.test('rendered in headless Chromium: no console error, no request, a drawn page whose numbers are the JSON\'s', async (t) => {
  const base = await statusTarget(t)
  const dir = t.testdir({ 'control.html': '<!DOCTYPE html><title>c</title><p>x</p><img src="http://127.0.0.1:1/a.png"><script>console.error("control error")</script>' })
  const urls = [`${base}/`, `${base}/missing`, `${base}/drop`]

  // A: a saved JSON with 100 ms interval rows, through benchrig report
  const a = JSON.parse(JSON.stringify(await load({ url: urls, amount: 300, connections: 3, interval: 100 })))
  t.ok(a.intervals.length >= 1 && a.errors > 0 && a.non2xx > 0, `run A: ${a.intervals.length} interval rows, ${a.errors} errors, ${a.non2xx} non-2xx`)
  fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify(a))
  t.equal(await report([path.join(dir, 'a.json'), '--html', path.join(dir, 'a.html')]), 0)
  t.same(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left')

  // B: benchrig load --html as a user runs it: -j keeps stdout to the JSON,
  // the 1 s rows --html records are in the JSON but not printed
  const b = await cli(['load', '-a', '300', '-c', '2', '-j', '--html', path.join(dir, 'b.html'), '--prometheus', path.join(dir, 'b.prom'), ...urls])
  t.equal(b.code, 0, b.stderr)
  const bJson = JSON.parse(b.stdout)
  t.ok(Array.isArray(bJson.intervals) && bJson.intervals.length >= 1, '--html turned on interval rows')
  t.notMatch(b.stderr, /^interval /m, 'and did not print them')
  t.match(fs.readFileSync(path.join(dir, 'b.prom'), 'utf8'), new RegExp(`^benchrig_load_requests_total ${bJson.requests.total}$`, 'm'), '--prometheus beside it')

  // C: a page that logs an error and asks the network: the checks must see both
  const html = fs.readFileSync(path.join(dir, 'a.html'), 'utf8')
  t.notMatch(html, /<script|<link|<img|@import|url\(|https?:\/\/(?!127\.0\.0\.1|www\.w3\.org\/2000\/svg)/i, 'no script, link, image or URL but the target\'s and the SVG namespace')
  if (!needTool(t, 'chromium')) return
  const size = { width: 900, height: 3000, evaluate: READ_PAGE }
  const [pageA, pageB, control] = await visitPages(dir, [
    { file: path.join(dir, 'a.html'), ...size },
    { file: path.join(dir, 'b.html'), ...size },
    { file: path.join(dir, 'control.html'), ...size }
  ])
  t.match(control.problems.join('\n'), /console\.error: control error/, 'the control page\'s console error is seen')
  t.ok(control.requests.some((u) => u.startsWith('http:')), 'and its request')

  for (const [name, page, json] of [['A', pageA, a], ['B', pageB, bJson]]) {
    t.same(page.problems, [], `${name}: nothing logged`)
    t.same(page.requests.map((u) => new URL(u).protocol), ['file:'], `${name}: the page itself is the one request`)
    t.same(page.value.charts, ['chart percentile-plot', 'chart latency-over-time', 'chart rps-over-time'], `${name}: the three charts`)
    t.ok(page.value.curve > 100, `${name}: the percentile curve has a path`)
    const paths = page.value.figures.map(([p]) => p)
    const wanted = ['requests.total', 'requests.mean', 'latency.p50', 'latency.p99', 'latency.p99_9', 'latency.max', 'errors', 'non2xx', 'throughput.total',
      'duration', 'connections', 'pipelining', 'workers', 'url', 'start',
      ...Object.keys(json.statusCodeStats).map((c) => `statusCodeStats.${c}.count`),
      ...Object.keys(json.errorsByKind).filter((k) => k !== 'status').map((k) => `errorsByKind.${k}`),
      ...json.intervals.flatMap((_, i) => [`intervals.${i}.count`, `intervals.${i}.p99`, `intervals.${i}.errors`])]
    t.same(wanted.filter((p) => !paths.includes(p)), [], `${name}: every figure is in the page`)
    const wrong = []
    for (const [p, shown] of page.value.figures) {
      const value = at(json, p)
      const ok = typeof value === 'number'
        ? Number(shown.replace(/,/g, '')) === value
        : p === 'url'
          ? shown === [].concat(value).join('\n')
          : p === 'start' || p === 'finish' ? new Date(shown).getTime() === new Date(value).getTime() : shown === String(value)
      if (!ok) wrong.push(`${p}: page ${shown}, JSON ${value}`)
    }
    t.same(wrong, [], `${name}: the ${page.value.figures.length} figures equal the JSON`)

    const img = decodePng(page.png)
    let ink = 0
    let curve = 0
    for (let y = 0; y < img.height; y += 2) {
      for (let x = 0; x < img.width; x += 2) {
        const [r, g, bl] = img.pixel(x, y)
        if (r < 200 || g < 200 || bl < 200) ink++
        if (r === 0x1f && g === 0x77 && bl === 0xb4) curve++
      }
    }
    t.ok(ink > 0.005 * (img.width * img.height / 4), `${name}: not blank, ${ink} inked pixels of ${img.width * img.height / 4} sampled`)
    t.ok(curve > 200, `${name}: ${curve} sampled pixels in the curve's blue`)
  }
})

t.test('a result without interval rows: requests per second from the seconds, and the page says what latency over time needs', async (t) => {
  const r = { url: 'http://x/', connections: 1, pipelining: 1, workers: 1, duration: 2, start: '2026-01-01T00:00:00.000Z', finish: '2026-01-01T00:00:02.000Z', errors: 0, non2xx: 0, statusCodeStats: {}, errorsByKind: {}, requests: { total: 0, mean: 0 }, throughput: { total: 0 }, latency: { p50: 0, p99: 0, max: 0, min: 0, mean: 0, stddev: 0 }, histogram: require('../../lib/engine/measure/hdr-codec.js').encode(new (require('../../lib/engine/measure/histogram.js').Histogram)()), perSecond: { requests: [0, 0] } }
  const html = renderHtml(r, { version: '1.2.3' })
  t.match(html, /<h1>benchrig load: http:\/\/x\/<\/h1>/, 'no title: the target')
  t.match(renderHtml({ ...r, title: 'checkout <v2>' }), /<title>checkout &lt;v2&gt;<\/title>[^]*<h1>checkout &lt;v2&gt;<\/h1>/, '-T names the page, escaped')
  t.match(html, /class="chart rps-over-time"/)
  t.notMatch(html, /latency-over-time/)
  t.match(html, /Latency over time needs interval rows: run benchrig load with --interval MS/)
  t.match(html, />no responses</, 'an empty histogram says so in the plot')
  t.match(html, /<meta name="generator" content="benchrig 1\.2\.3">/)
  t.notMatch(html, /class="uncorrected"/, 'no second curve outside rate mode')
  // rate mode: the curve from the actual sends under the corrected one
  const { Histogram } = require('../../lib/engine/measure/histogram.js')
  const { encode } = require('../../lib/engine/measure/hdr-codec.js')
  const corrected = new Histogram()
  const actual = new Histogram()
  for (let i = 1; i <= 1000; i++) {
    corrected.record(i * 10)
    actual.record(i)
  }
  const rate = renderHtml({ ...r, latency: { ...r.latency, max: 10 }, histogram: encode(corrected), uncorrectedHistogram: encode(actual) })
  t.match(rate, /<path d="M[^"]+"[^>]*class="uncorrected"\/>[^]*<path d="M[^"]+"[^>]*class="curve"\/>/, 'two curves, the corrected one on top')
  t.notMatch(rate, />no responses</)
})
