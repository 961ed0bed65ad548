'use strict'
// Progress that ticks: where it goes (TTY, CI log, nowhere), a redraw every
// second from an injected timer (elapsed time moves during one long
// configuration), the configuration running, plain lines per finished file in
// CI, and the line erased at the end and on Ctrl-C.
const t = require('tap')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { progressMode, createStatusLine } = require('../../lib/harness/status-line.js')
const { createProgress } = require('../../lib/harness/progress.js')
const { createScatterProgress, formatScatterProgress } = require('../../lib/harness/scatter-progress.js')

function sink (isTTY) {
  let text = ''
  return { isTTY, columns: 120, write: (s) => { text += s; return true }, get text () { return text } }
}

/** setInterval/clearInterval that the test fires by hand. */
function manualTimers () {
  const live = new Set()
  return {
    setInterval: (fn, ms) => { const h = { fn, ms }; live.add(h); return h },
    clearInterval: (h) => live.delete(h),
    tick () { for (const h of live) h.fn() },
    get count () { return live.size }
  }
}

t.test('where progress goes', async (t) => {
  const tty = { isTTY: true }
  const pipe = { isTTY: false }
  t.equal(progressMode({ stream: tty, env: {} }), 'tty')
  t.equal(progressMode({ stream: pipe, env: {} }), 'none', 'a pipe outside CI: nothing')
  t.equal(progressMode({ stream: pipe, env: { CI: 'true' } }), 'plain', 'a CI log: plain lines')
  t.equal(progressMode({ stream: pipe, env: { CI: 'false' } }), 'none')
  t.equal(progressMode({ stream: tty, env: { CI: 'true' } }), 'tty', 'a terminal in CI is still a terminal')
  t.equal(progressMode({ stream: tty, enabled: false, env: {} }), 'none', '--no-progress')
  t.equal(progressMode({ stream: tty, env: { BENCHRIG_PROGRESS: 'none' } }), 'none')
  t.equal(progressMode({ stream: pipe, env: { BENCHRIG_PROGRESS: 'plain' } }), 'plain')
  t.equal(progressMode({ stream: pipe, env: { BENCHRIG_PROGRESS: 'tty' } }), 'none', 'never control characters into a pipe')
})

t.test('a TTY line is redrawn every second while nothing else happens, and stops', async (t) => {
  const timers = manualTimers()
  const out = sink(true)
  let n = 0
  const line = createStatusLine({ stream: out, mode: 'tty', render: () => `tick ${n++}`, timers })
  t.equal(timers.count, 0, 'no timer before the first draw')
  line.draw()
  t.equal(timers.count, 1, 'one ticker')
  timers.tick()
  timers.tick()
  t.equal(out.text, '\rtick 0\u001b[K\rtick 1\u001b[K\rtick 2\u001b[K')
  line.draw()
  t.equal(timers.count, 1, 'still one ticker after more draws')
  line.stop()
  t.equal(timers.count, 0, 'stopped')
  t.ok(out.text.endsWith('\r\u001b[K'), 'erased')
})

t.test('run.js progress: elapsed and ETA move during one configuration; the configuration running is named', async (t) => {
  const timers = manualTimers()
  const out = sink(true)
  let now = 0
  const p = createProgress({ stream: out, units: 2, now: () => now, env: {}, timers })
  p.startFile(1, 'http/simple.js')
  p.config(4)
  now = 3000
  timers.tick()
  t.ok(out.text.endsWith('\r[1/2] http/simple.js config 1/4  elapsed 0:03  ETA ?\u001b[K'))
  now = 7000
  timers.tick()
  t.ok(out.text.endsWith('\r[1/2] http/simple.js config 1/4  elapsed 0:07  ETA ?\u001b[K'), 'the tick moved elapsed with no event')
  p.result()
  now = 8000
  timers.tick()
  t.ok(out.text.endsWith('\r[1/2] http/simple.js config 2/4  elapsed 0:08  ETA 0:56\u001b[K'))
  p.stop()
  t.equal(timers.count, 0)
})

t.test('run.js progress in a CI log: one plain line per finished file', async (t) => {
  const out = sink(false)
  let now = 0
  const p = createProgress({ stream: out, units: 2, now: () => now, env: { CI: 'true' } })
  p.startFile(1, 'a/x.js'); p.config(1); now = 5000; p.result(); p.endFile()
  p.startFile(2, 'a/y.js'); p.config(1); now = 9000; p.result(); p.endFile()
  p.stop()
  t.equal(out.text, '[1/2] a/x.js done  elapsed 0:05  ETA 0:05\n[2/2] a/y.js done  elapsed 0:09  ETA 0:00\n')
})

t.test('scatter progress shows configurations, not only runs', async (t) => {
  t.equal(formatScatterProgress({ run: 2, runs: 30, done: 3, queue: 8, elapsedMs: 60000, fraction: 1.375 / 30 }),
    'scatter: run 2/30 config 4/8  elapsed 1:00  ETA 20:49')
  const timers = manualTimers()
  const out = sink(true)
  let now = 0
  const p = createScatterProgress({ stream: out, enabled: true, runs: 2, now: () => now, env: {}, timers })
  p.startRun(1); p.config(2); now = 1000; p.result()
  t.ok(out.text.endsWith('\rscatter: run 1/2 config 2/2  elapsed 0:01  ETA 0:03\u001b[K'))
  p.stop()
  t.ok(out.text.endsWith('\r\u001b[K'))
})

t.test('Ctrl-C erases the line, then ends run.js as the signal would', async (t) => {
  // runSuite with a TTY stderr (a file that says it is a TTY), then SIGINT
  const script = `
    const fs = require('node:fs')
    const { runSuite } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'lib', 'harness', 'run-suite.js'))})
    const { Writable } = require('node:stream')
    const stderr = new Writable({ write (chunk, enc, cb) { fs.writeSync(2, chunk); cb() } })
    stderr.isTTY = true
    stderr.columns = 100
    process.stdout.write('ready\\n')
    runSuite({ root: ${JSON.stringify(path.join(__dirname, '..', 'fixtures', 'harness', 'root'))}, categories: ['beta'], filter: ['hang'], stdout: new (require('node:stream').PassThrough)().resume(), stderr })
  `
  // its own process group, so the signal reaches every process of the run, as a terminal's Ctrl-C does
  const child = spawn(process.execPath, ['-e', script], { detached: true, env: { ...process.env, BENCHRIG_PROGRESS: '', CI: '' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  await new Promise((resolve) => child.stdout.once('data', resolve))
  for (let waited = 0; !stderr.includes('beta/hang.js config 1/2'); waited += 20) {
    if (waited > 60000) throw new Error(`no progress line within 60 s; stderr: ${JSON.stringify(stderr)}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const closed = new Promise((resolve) => child.on('close', resolve))
  const exited = new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])))
  process.kill(-child.pid, 'SIGINT')
  const [code, signal] = await exited
  // a benchmark process of the group may still hold the pipe: end the group, then read to the end
  try { process.kill(-child.pid, 'SIGKILL') } catch {}
  await closed
  t.equal(signal, 'SIGINT', `ended by the signal (code ${code})`)
  t.match(stderr, /\r\[1\/1\] beta\/hang\.js config 1\/2 {2}elapsed 0:\d\d {2}ETA \?\u001b\[K/) // eslint-disable-line no-control-regex
  t.ok(stderr.endsWith('\r\u001b[K'), 'the line was erased before the end')
})
