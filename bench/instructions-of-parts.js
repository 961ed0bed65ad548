#!/usr/bin/env node
'use strict'
// Instructions of the small parts the hot path is made of, and of the ways
// one could do them, counted by valgrind's callgrind (node with --predictable):
// each part runs N1 and N2 times in a fresh node, and the difference over
// N2 - N1 is one call without start-up. docs/load.md ("Head and block
// templates") quotes these figures when it says why a part is done one way.
//
//   node bench/instructions-of-parts.js [--n1 20000] [--n2 60000] [--also LABEL=DIR]
//   --also runs the Huffman part with another checkout's lib/engine/http2/hpack.js too
//   (e.g. the commit before a change to the decoder)
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const FLAGS = ['--predictable'] // as lib/harness/callgrind.js: compilation and GC in a fixed order

// an nginx response head (148 bytes), placed at an odd offset of a read buffer
const SETUP_HEAD = `
const HEAD = 'HTTP/1.1 200 OK\\r\\nServer: nginx/1.22.1\\r\\nDate: Tue, 24 Nov 2026 01:00:00 GMT\\r\\n' +
  'Content-Type: text/plain\\r\\nContent-Length: 11\\r\\nConnection: keep-alive\\r\\n\\r\\n'
const buf = Buffer.alloc(65536); const at = 3; buf.write(HEAD, at, 'latin1'); const L = HEAD.length
const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
const copy = Buffer.from(HEAD, 'latin1')
`
// RFC 7541 C.6's Huffman-coded date, 22 bytes
const SETUP_DATE = "const date = Buffer.from('d07abe941054d444a8200595040b8166e082a62d1bff', 'hex'); const out = Buffer.alloc(64)\n"

const PARTS = (also) => [
  ['head template compare (ByteTemplate, 8-byte words)', SETUP_HEAD +
    `const { ByteTemplate } = require(${JSON.stringify(path.join(ROOT, 'lib/engine/byte-template.js'))})
     const tpl = new ByteTemplate(1024); tpl.learn(view, at, L)
     let ok = 0; for (let i = 0; i < N; i++) ok += tpl.matches(view, at) ? 1 : 0
     if (ok !== N) throw new Error('no match')`],
  ['Buffer#compare with offsets, the same head', SETUP_HEAD +
    `let ok = 0; for (let i = 0; i < N; i++) ok += buf.compare(copy, 0, L, at, at + L) === 0 ? 1 : 0
     if (ok !== N) throw new Error('no match')`],
  ['Buffer#indexOf with a Buffer needle, the same head', SETUP_HEAD +
    `let ok = 0; for (let i = 0; i < N; i++) ok += buf.indexOf(copy, at) === at ? 1 : 0
     if (ok !== N) throw new Error('no match')`],
  ...[['', ROOT], ...also].map(([label, dir]) => [`${label ? `${label}: ` : ''}HPACK Huffman decode of a 22-byte date`, SETUP_DATE +
    `const { huffmanDecode } = require(${JSON.stringify(path.join(dir, 'lib/engine/http2/hpack.js'))})
     let n = 0; for (let i = 0; i < N; i++) n += huffmanDecode(date, 0, date.length, out)
     if (n !== 29 * N) throw new Error('wrong length ' + n / N)`]),
  ['performance.now()', `const { performance } = require('node:perf_hooks')
     let s = 0; for (let i = 0; i < N; i++) s += performance.now()
     if (!(s > 0)) throw new Error('no time')`],
  ['process.hrtime() as ms', `let s = 0; for (let i = 0; i < N; i++) { const t = process.hrtime(); s += t[0] * 1e3 + t[1] / 1e6 }
     if (!(s > 0)) throw new Error('no time')`]
]

function arg (name, def) {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : def
}

/** Instructions of `node -e code` with N = n, under callgrind. */
function count (code, n) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-parts-'))
  const out = path.join(dir, 'cg.out')
  try {
    const r = spawnSync('valgrind', ['--tool=callgrind', '-q', `--callgrind-out-file=${out}`, process.execPath, ...FLAGS, '-e', `const N = ${n};\n${code}`], { encoding: 'utf8' })
    if (r.error) throw new Error(`valgrind did not start (${r.error.code}): install the Debian package "valgrind"`)
    if (r.status !== 0) throw new Error(`a part failed: ${r.stderr.slice(-400)}`)
    const m = /^summary:\s*(\d+)/m.exec(fs.readFileSync(out, 'utf8'))
    if (!m) throw new Error('the callgrind output has no summary line')
    return Number(m[1])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function main () {
  const n1 = Number(arg('--n1', 20000))
  const n2 = Number(arg('--n2', 60000))
  if (!(Number.isInteger(n1) && Number.isInteger(n2) && n1 >= 1 && n2 > n1)) {
    console.error('instructions-of-parts: --n1 and --n2: whole numbers with 1 <= n1 < n2')
    process.exitCode = 2 // a usage error, before any work
    return
  }
  const also = arg('--also', undefined)
  const extra = also === undefined ? [] : [also.split('=')]
  for (const [name, code] of PARTS(extra)) {
    const perCall = (count(code, n2) - count(code, n1)) / (n2 - n1)
    console.log(`${name.padEnd(58)} ${Math.round(perCall).toString().padStart(7)} instructions/call`)
  }
}

try {
  main()
} catch (err) {
  console.error(`instructions-of-parts: ${err.message}`)
  process.exitCode = 1
}
