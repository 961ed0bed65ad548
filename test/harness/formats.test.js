'use strict'
// Golden files keep the three output formats stable. Regenerate them only on
// purpose: BENCHRIG_UPDATE_GOLDEN=1 npx tap test/harness/formats.test.js
const { test } = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { createTextWriter, formatRate, formatNodeRate, formatConfiguration, formatNodeConfiguration, formatResultLine, formatNodeResultLine, formatExtraLine, formatErrorLine } = require('../../lib/record/text.js')
const { createRunCsvWriter, createWideCsvWriter, WIDE_COLUMNS, parseCsvRecords } = require('../../lib/record/csv.js')
const { createNdjsonWriter, SCHEMA } = require('../../lib/record/ndjson.js')
const { collectMeta } = require('../../lib/record/meta.js')
const { nodeBinary } = require('../helpers/tools.js')

const GOLDEN = path.join(__dirname, '..', 'fixtures', 'harness', 'golden')

const REPORTS = [
  { name: 'buffers/buffer-tostring.js', conf: { encoding: 'utf8', len: 64 }, rate: 9178624.589123, time: 0.871 },
  { name: 'buffers/buffer-tostring.js', conf: { encoding: 'hex', len: 1024 }, rate: 646901.2, time: 1.5 },
  { name: 'buffers/odd "name".js', conf: { s: 'a "quoted", comma', flag: false, n: 1e-7 }, rate: 12.5, time: 2 },
  { name: 'http/simple.js', conf: { type: 'bytes', c: 50, benchmarker: 'wrk' }, rate: 31000.333, time: 5.01, extra: { benchmarker: 'wrk', benchmarker_version: '4.1.0', p99: 2.5, latency_p50: 0.9, latency_p99: 2.5, latency_max: 12.25, errors: 0, non2xx: 3, rate: 'never overrides' } }
]
const META = {
  benchrig: '0.1.0',
  node: { version: 'v20.20.2', path: '/usr/bin/node', sha256: 'c0ffee' },
  v8Flags: ['--max-semi-space-size=16'],
  driverNode: { version: 'v20.20.2', path: '/usr/bin/node' },
  cpu: { model: 'Test CPU', count: 2 },
  os: { platform: 'linux', release: '6.0', arch: 'x64' },
  loadavg: [0.5, 0.25, 0.1],
  date: '2026-01-02T03:04:05.000Z',
  hostname: 'golden'
}

function render (make) {
  let out = ''
  const w = make({ write: (s) => { out += s } })
  w.start()
  let last
  for (const r of REPORTS) {
    if (r.name !== last) w.file(r.name)
    last = r.name
    w.result(r)
  }
  if (w.error) w.error({ name: 'buffers/broken.js', conf: { n: 1 }, message: 'boom' })
  w.end({ files: 3, runs: 1, results: 4, failures: 1 })
  return out
}

function golden (t, file, actual) {
  const p = path.join(GOLDEN, file)
  if (process.env.BENCHRIG_UPDATE_GOLDEN === '1') fs.writeFileSync(p, actual)
  t.equal(actual, fs.readFileSync(p, 'utf8'), `${file} matches the golden file`)
}

test('text format: Node core\'s run.js lines, byte for byte: JSON-quoted values, every digit of the rate', async (t) => {
  const text = render(createTextWriter)
  golden(t, 'run.txt', text)
  // The lines Node's run.js prints for these reports (its rules: a blank
  // line and the file name per file, `name conf: rate`, each value through
  // JSON.stringify, thousands separators before the decimal point only).
  t.equal(text, [
    '',
    'buffers/buffer-tostring.js',
    'buffers/buffer-tostring.js encoding="utf8" len=64: 9,178,624.589123',
    'buffers/buffer-tostring.js encoding="hex" len=1024: 646,901.2',
    '',
    'buffers/odd "name".js',
    'buffers/odd "name".js s="a \\"quoted\\", comma" flag=false n=1e-7: 12.5',
    '',
    'http/simple.js',
    'http/simple.js type="bytes" c=50 benchmarker="wrk": 31,000.333',
    ''
  ].join('\n'), 'no detail line: Node prints one line per result')
  t.equal(formatNodeRate(773200.4995493788), '773,200.4995493788')
  t.equal(formatNodeRate(1234), '1,234', 'an integer has no decimal point')
  t.equal(formatNodeRate(0.000123), '0.000123')
  t.equal(formatNodeRate(1.5e21), '1.5e+21', 'the number\'s own text')
  t.equal(formatNodeConfiguration({ method: 'deepEqual', n: 1e6, max: null }), 'method="deepEqual" n=1000000 max=null', 'Infinity reaches the driver as null (IPC is JSON) and prints as Node prints it')
  t.equal(formatNodeResultLine({ name: 'a/b.js', conf: {}, rate: 1 }), 'a/b.js : 1', 'run.js: a space before the colon when there is no configuration, as in Node\'s run.js')
  t.equal(formatNodeResultLine({ name: 'a/b.js', conf: {}, rate: 1 }, 'hand'), 'a/b.js: 1', 'by hand: none, as in Node\'s common.js')
})

test('text format --human: rounded rates, util.inspect quoting, the load generator\'s detail line', async (t) => {
  const text = render((out) => createTextWriter(out, { human: true }))
  golden(t, 'run-human.txt', text)
  t.match(text, /^\nbuffers\/buffer-tostring\.js\nbuffers\/buffer-tostring\.js encoding='utf8' len=64: 9,178,624\.59\n/)
  t.equal(formatRate(1234567.891), '1,234,567.89')
  t.equal(formatRate(999), '999.00')
  t.equal(formatRate(0), '0.00')
  t.equal(formatRate(-1234.5), '-1,234.50')
  t.equal(formatConfiguration({}), '')
  t.equal(formatResultLine({ name: 'a/b.js', conf: {}, rate: 1 }), 'a/b.js: 1.00')
  t.equal(formatErrorLine({ name: 'a/b.js', conf: null, message: 'x' }), 'a/b.js: failed: x')
  // A load generator's result: the tool with its version, latency, errors
  // and non-2xx on an indented line under the result line.
  t.match(text, /^http\/simple\.js type='bytes' c=50 benchmarker='wrk': 31,000\.33\n {2}wrk 4\.1\.0; latency ms p50 0\.90, p99 2\.50, max 12\.25; errors 0; non-2xx 3\n/m)
  t.equal(formatExtraLine({ extra: { benchmarker: 'h2load', benchmarker_version: '1.52.0' } }), '  h2load 1.52.0', 'fields a tool cannot tell are left out')
  t.equal(formatExtraLine({ extra: { benchmarker: 'fake' } }), '', 'no version: no detail line')
  t.equal(formatExtraLine({ name: 'a/b.js', conf: {}, rate: 1 }), '', 'a plain benchmark has none')
  const noDetails = render((out) => createTextWriter(out, { human: true, details: false }))
  t.notMatch(noDetails, /wrk 4\.1\.0/, 'test mode: no detail line')
})

test('CSV format: Node core\'s run.js layout byte for byte, which our reader and R read as CSV', async (t) => {
  const csv = render(createRunCsvWriter)
  golden(t, 'run.csv', csv)
  t.equal(csv, [
    '"filename", "configuration", "rate", "time"',
    '"buffers/buffer-tostring.js", "encoding=""utf8"" len=64", 9178624.589123, 0.871000000',
    '"buffers/buffer-tostring.js", "encoding=""hex"" len=1024", 646901.2, 1.500000000',
    '"buffers/odd ""name"".js", "s=""a \\""quoted\\"", comma"" flag=false n=1e-7", 12.5, 2.000000000',
    '"http/simple.js", "type=""bytes"" c=50 benchmarker=""wrk""", 31000.333, 5.010000000',
    ''
  ].join('\n'), 'Node\'s header and rows: ", " after each comma, the configuration JSON-quoted with its quotes doubled, the time with nine decimals as Node sends it')
  const { header, records } = parseCsvRecords(csv)
  t.same(header, ['filename', 'configuration', 'rate', 'time'])
  t.equal(records.length, REPORTS.length)
  t.equal(records[2].filename, 'buffers/odd "name".js')
  t.equal(records[2].configuration, 's="a \\"quoted\\", comma" flag=false n=1e-7')
  t.equal(Number(records[0].rate), REPORTS[0].rate, 'the rate keeps full precision')
})

test('csv-wide format: Node\'s four columns, then the load generator\'s details', async (t) => {
  const csv = render(createWideCsvWriter)
  golden(t, 'run-wide.csv', csv)
  const { header, records } = parseCsvRecords(csv)
  t.same(header, ['filename', 'configuration', 'rate', 'time', ...WIDE_COLUMNS])
  t.equal(records.length, REPORTS.length)
  const http = records[3]
  t.equal(http.configuration, 'type="bytes" c=50 benchmarker="wrk"', 'the tool is in the configuration, as in Node core')
  t.same([http.benchmarker_version, http.latency_p50, http.latency_p90, http.latency_p99, http.latency_max, http.errors, http.non2xx],
    ['4.1.0', '0.9', '', '2.5', '12.25', '0', '3'], 'version, latency (ms), errors, non-2xx; a figure the tool lacks is empty')
  t.same(WIDE_COLUMNS.map((k) => records[0][k]), WIDE_COLUMNS.map(() => ''), 'empty for a benchmark without a load generator')
})

test('NDJSON format: schema, metadata and extra fields on every record', async (t) => {
  const nd = render((out) => createNdjsonWriter(out, META))
  golden(t, 'run.ndjson', nd)
  const lines = nd.trim().split('\n').map((l) => JSON.parse(l))
  t.same(lines.map((l) => l.type), ['result', 'result', 'result', 'result', 'error', 'summary'])
  for (const l of lines) t.equal(l.schema, SCHEMA)
  const http = lines[3]
  t.equal(http.configuration, "type='bytes' c=50 benchmarker='wrk'")
  t.equal(http.benchmarker_version, '4.1.0')
  t.equal(http.p99, 2.5)
  t.equal(http.rate, 31000.333, 'extra fields never replace the core ones')
  t.same(http.meta, META)
  t.same(lines[5], { schema: SCHEMA, type: 'summary', files: 3, runs: 1, results: 4, failures: 1 })
})

test('collectMeta: benchrig, node version and path, CPU, OS, date, load', async (t) => {
  const m = collectMeta({ date: new Date(0) })
  t.equal(m.benchrig, require('../../package.json').version)
  t.same(m.node, { version: process.version, path: process.execPath, sha256: require('node:crypto').createHash('sha256').update(fs.readFileSync(process.execPath)).digest('hex') })
  t.same(collectMeta({ env: { NODE_OPTIONS: '--jitless', BENCHRIG_FLAGS: '--a  --b', NODE_BENCHMARK_FLAGS: '--c' }, execArgv: ['--d'] }).v8Flags, ['--a', '--b', '--c', '--d', '--jitless'],
    'the children\'s flags in root.js order, then NODE_OPTIONS')
  t.equal(collectMeta({ execPath: '/no/such/node' }).node.sha256, undefined, 'an unreadable binary: no hash, no error')
  t.type(m.cpu.model, 'string')
  t.ok(m.cpu.count >= 1)
  t.same(Object.keys(m.os), ['platform', 'release', 'arch'])
  t.equal(m.date, '1970-01-01T00:00:00.000Z')
  t.equal(m.loadavg.length, 3)
  const node18 = nodeBinary(18)
  if (node18) t.match(collectMeta({ execPath: node18 }).node.version, /^v18\./, 'asks the binary under test for its version')
})
