'use strict'
// gocannon's output forms in `benchrig load`: --format yaml read back by two
// real YAML readers (the `yaml` package and Python's PyYAML), the request log
// in gocannon's CSV layout (--reqlog-format gocannon) and the raw 1 µs-bin
// histogram file (--hist-raw, gocannon's --mode hist -o FILE).
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile, spawnSync } = require('node:child_process')
const YAML = require('yaml')
const { load } = require('../../lib/engine/index.js')
const { toYaml } = require('../../lib/engine/result/yaml.js')
const { rawBins, writeHistRaw } = require('../../lib/engine/measure/hist-raw.js')
const { Histogram } = require('../../lib/engine/measure/histogram.js')
const { decode } = require('../../lib/engine/measure/hdr-codec.js')
const { outputFormat, renderResult } = require('../../lib/cli/load-output.js')
const { UsageError } = require('../../lib/errors.js')
const { startServe } = require('../helpers/serve.js')
const { rawServer, response } = require('../helpers/raw-server.js')
const { needTool } = require('../helpers/tools.js')

const BIN = path.join(__dirname, '..', '..', 'bin', 'benchrig.js')

function tmp (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-formats-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// one real run for the YAML and histogram tests, with every shape a result
// has: nested objects, arrays of numbers, arrays of objects (--interval),
// status codes as keys (a 404 every fourth response), strings
let shared
t.before(async () => {
  const srv = await rawServer((s, req) => s.write(req.total % 4 === 0 ? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n' : response('ok')))
  try {
    shared = await load({ url: srv.url, connections: 2, amount: 200, interval: 100, breakout: true, title: 'yes: a "title" #1' })
  } finally {
    await srv.close()
  }
})
const sharedRun = async () => shared

t.test('--format yaml: the JSON result key for key, read back by the yaml package', async (t) => {
  const result = await sharedRun(t)
  const text = toYaml(result)
  t.match(text, /^---\nurl: "http:\/\/127\.0\.0\.1:\d+\/"\n/, 'a document; strings with a colon are quoted')
  t.same(YAML.parse(text), JSON.parse(JSON.stringify(result)), 'the same data as -j')
  t.match(text, /\nstatusCodeStats:\n {2}"200":\n {4}count: \d+\n {2}"404":\n {4}count: 50\n/, 'status codes are quoted keys (a reader keeps them strings)')
  t.match(text, /\nintervals:\n {2}- start: \d+/, 'arrays of objects in block style')
  t.equal(YAML.parse(text).title, 'yes: a "title" #1')
  // -f rounds: one stream of documents
  const docs = YAML.parseAllDocuments(text + text)
  t.equal(docs.length, 2)
})

t.test('--format yaml: PyYAML (YAML 1.1) reads the same data', async (t) => {
  if (!needTool(t, 'pyyaml')) return
  const result = await sharedRun(t)
  const dir = tmp(t)
  fs.writeFileSync(path.join(dir, 'r.yaml'), toYaml(result))
  fs.writeFileSync(path.join(dir, 'r.json'), JSON.stringify(result))
  // equal as data, and the keys that YAML 1.1 could take for numbers or booleans stayed strings
  const py = 'import json, sys, yaml\n' +
    'a = yaml.safe_load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))\n' +
    'print(a == b, sorted(type(k).__name__ for k in a["statusCodeStats"]) == ["str"] * len(b["statusCodeStats"]))\n'
  const r = spawnSync('python3', ['-c', py, path.join(dir, 'r.yaml'), path.join(dir, 'r.json')], { encoding: 'utf8' })
  t.equal(r.stderr, '')
  t.equal(r.stdout.trim(), 'True True')
})

t.test('YAML scalars that a reader could misread are quoted', async (t) => {
  const data = { s: ['yes', 'No', 'on', 'null', 'true', '1', '1.5', '', ' x', 'a: b', 'a #b', '- x', 'ok'], n: [1e21, 1.5e-7, -0.5, 0], e: [], o: {}, z: null }
  const text = toYaml(data)
  t.same(YAML.parse(text), data)
  t.match(text, /s: \["yes", "No", "on", "null", "true", "1", "1\.5", "", " x", "a: b", "a #b", "- x", ok\]/)
  t.match(text, /"n": \[1\.0e\+21, 1\.5e-7, -0\.5, 0\]/, 'exponents with a ".0", which YAML 1.1 needs for a float')
})

t.test('--format: text (or gocannon\'s "default"), json (as -j), yaml; anything else is a usage error', async (t) => {
  t.equal(outputFormat({}), 'text')
  t.equal(outputFormat({ json: true }), 'json')
  t.equal(outputFormat({ format: 'default' }), 'text')
  t.equal(outputFormat({ format: ['json', 'yaml'] }), 'yaml', 'the last one given wins')
  t.equal(outputFormat({ format: 'json', json: true }), 'json')
  const bad = t.throws(() => outputFormat({ format: 'xml' }), /invalid --format "xml": give text, json or yaml/)
  t.ok(bad instanceof UsageError)
  t.throws(() => outputFormat({ format: 'yaml', json: true }), /-j\/--json is --format json: it cannot be combined with --format yaml/)
  const result = await sharedRun(t)
  t.same(JSON.parse(renderResult(result, 'json', {})), JSON.parse(JSON.stringify(result)))
  t.match(renderResult(result, 'text', {}), /requests in \d/)
})

t.test('--hist-raw: 1 µs bins, exact below 2048 µs, each wider bucket at its lowest µs', async (t) => {
  const h = new Histogram()
  for (const v of [0, 3, 3, 5, 2047, 2048, 2049, 5001, 5003]) h.record(v)
  const bins = rawBins(h)
  t.equal(bins.length, 5001, 'up to the last bin holding a request')
  t.same([bins[0], bins[3], bins[5], bins[2047]], [1, 2, 1, 1], 'exact below 2048 µs')
  t.equal(bins[2048], 2, '2048 and 2049 share a 2 µs bucket, written at 2048')
  t.equal(bins[5000], 2, '5001 and 5003 share a 4 µs bucket, written at 5000')
  t.equal(bins.reduce((a, b) => a + b, 0), 9, 'every request counted once')
  t.equal(rawBins(new Histogram()).length, 0)

  const result = await sharedRun(t)
  const file = path.join(tmp(t), 'hist.txt')
  const lines = writeHistRaw(file, result.histogram)
  const counts = fs.readFileSync(file, 'utf8').split('\n')
  t.equal(counts.pop(), '', 'newline-terminated')
  t.equal(counts.length, lines)
  t.ok(counts.every((c) => /^\d+$/.test(c)), 'one whole count per line')
  t.not(counts[counts.length - 1], '0', 'ends at the last non-empty bin, as gocannon\'s file does')
  t.equal(counts.reduce((a, c) => a + Number(c), 0), decode(result.histogram).totalCount)
  t.throws(() => writeHistRaw(path.join(file, 'under-a-file'), result.histogram), /--hist-raw .*under-a-file: cannot write the histogram \(ENOTDIR\)/)
})

t.test('--reqlog-format gocannon: its CSV header, rows ending in ";", sorted by end, over workers', async (t) => {
  const target = await startServe(t, { delay: '0-1' })
  const file = path.join(tmp(t), 'reqlog.csv')
  const r = await load({ url: target.url + '/', connections: 4, workers: 2, amount: 300, reqlog: file, reqlogFormat: 'gocannon' })
  t.equal(r.reqlog.rows, 300)
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  t.equal(lines.pop(), '')
  t.equal(lines[0], 'code;start;end;')
  const rows = lines.slice(1)
  t.equal(rows.length, 300)
  t.ok(rows.every((l) => /^200;\d+;\d+;$/.test(l)), 'code;start;end; with ns integers')
  const parsed = rows.map((l) => l.split(';').slice(0, 3).map(Number))
  t.ok(parsed.every(([, start, end]) => start <= end), 'start before end')
  t.ok(parsed.every(([, , end], i) => i === 0 || parsed[i - 1][2] <= end), 'sorted by end, as gocannon sorts its log')
  t.throws(() => load({ url: target.url + '/', reqlogFormat: 'csv', reqlog: file }), /invalid --reqlog-format "csv": give default .* or gocannon/)
  t.throws(() => load({ url: target.url + '/', reqlogFormat: 'gocannon' }), /--reqlog-format applies to the request log: add --reqlog FILE/)
})

t.test('benchrig load --format yaml: stdout is one YAML document, nothing else', async (t) => {
  const target = await startServe(t)
  const raw = path.join(tmp(t), 'raw.txt')
  // not spawnSync: the target serves from this process
  const r = await new Promise((resolve) => execFile(process.execPath, [BIN, 'load', '-c', '2', '-a', '0.1k', '--format', 'yaml', '--hist-raw', raw, target.url + '/'],
    (err, stdout, stderr) => resolve({ status: err ? err.code : 0, stdout, stderr })))
  t.equal(r.status, 0, r.stderr)
  t.equal(r.stderr, '', 'not a TTY: no progress, no banner (as with -j)')
  const result = YAML.parse(r.stdout)
  t.equal(result.requests.total, 100)
  t.equal(fs.readFileSync(raw, 'utf8').trim().split('\n').reduce((a, c) => a + Number(c), 0), 100, 'the raw histogram holds every request')
})
