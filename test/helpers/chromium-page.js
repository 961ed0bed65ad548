'use strict'
// Opens a local page in one headless Chromium and drives it over the
// DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 carries our
// commands, fd 4 its replies and events, each message JSON ended by a NUL
// byte), so a test can, from a single launch, collect what the page logs,
// every request it makes, values read from its DOM, and a screenshot.
const { spawn } = require('node:child_process')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

/**
 * @typedef {object} PageVisit
 * @property {string[]} problems console errors and warnings, uncaught exceptions, log errors
 * @property {string[]} requests every URL the page asked for, the page itself included
 * @property {any} value what `evaluate` returned (by value)
 * @property {Buffer} png a screenshot of the whole page
 */

/**
 * Visits pages one after another in one browser (one launch for a test file).
 * @param {string} dir a scratch folder for the browser profile
 * @param {{file: string, width: number, height: number, evaluate: string}[]} pages
 *   evaluate: an expression run in the page once it has loaded
 * @param {{timeoutMs?: number}} [opts] timeoutMs: for the whole visit. 180 s, not 60: the
 *   launch and the html-report test's three pages took 25 s at load 17 on the shared 2-core
 *   machine, and a time limit that is not the subject of a test must not fail it
 * @returns {Promise<PageVisit[]>}
 */
function visitPages (dir, pages, { timeoutMs = 180000 } = {}) {
  const child = spawn('chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--hide-scrollbars', '--remote-debugging-pipe',
    `--user-data-dir=${path.join(dir, 'profile')}`,
    'about:blank'
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] })
  const commands = /** @type {import('node:stream').Writable} */ (child.stdio[3])
  const replies = /** @type {import('node:stream').Readable} */ (child.stdio[4])
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const pending = new Map()
  const waiters = []
  /** @type {Map<string, {problems: string[], requests: string[]}>} what each page's session saw */
  const seen = new Map()
  let nextId = 1
  let buffered = ''

  function onEvent (msg) {
    const p = msg.params
    const page = seen.get(msg.sessionId)
    if (page === undefined) return
    if (msg.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'warning' || p.type === 'assert')) {
      page.problems.push(`console.${p.type}: ${p.args.map((a) => a.value ?? a.description).join(' ')}`)
    } else if (msg.method === 'Runtime.exceptionThrown') {
      page.problems.push(`exception: ${p.exceptionDetails.exception?.description ?? p.exceptionDetails.text}`)
    } else if (msg.method === 'Log.entryAdded' && (p.entry.level === 'error' || p.entry.level === 'warning')) {
      page.problems.push(`log ${p.entry.level} (${p.entry.source}): ${p.entry.text}`)
    } else if (msg.method === 'Network.requestWillBeSent') {
      page.requests.push(p.request.url)
    }
  }

  replies.on('data', (chunk) => {
    buffered += chunk.toString('utf8')
    let at
    while ((at = buffered.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buffered.slice(0, at))
      buffered = buffered.slice(at + 1)
      if (msg.id !== undefined && pending.has(msg.id)) {
        const { resolve, reject, method } = pending.get(msg.id)
        pending.delete(msg.id)
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`))
        else resolve(msg.result)
      } else if (msg.method) {
        onEvent(msg)
        for (const w of waiters.splice(0)) if (!w(msg)) waiters.push(w)
      }
    }
  })

  function send (method, params = {}, sessionId) {
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, method })
      commands.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0')
    })
  }

  const until = (test) => new Promise((resolve) => waiters.push((msg) => test(msg) ? (resolve(msg), true) : false))

  async function visit ({ file, width, height, evaluate }) {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' })
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true })
    const page = { problems: [], requests: [] }
    seen.set(sessionId, page)
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await send(`${domain}.enable`, {}, sessionId)
    await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId)
    const loaded = until((m) => m.method === 'Page.loadEventFired' && m.sessionId === sessionId)
    const nav = await send('Page.navigate', { url: pathToFileURL(file).href }, sessionId)
    if (nav.errorText) throw new Error(`navigation to ${file} failed: ${nav.errorText}`)
    await loaded
    const evaluated = await send('Runtime.evaluate', { expression: evaluate, returnByValue: true }, sessionId)
    if (evaluated.exceptionDetails) throw new Error(`evaluate: ${evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text}`)
    const shot = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true }, sessionId)
    await send('Target.closeTarget', { targetId })
    return { ...page, value: evaluated.result.value, png: Buffer.from(shot.data, 'base64') }
  }

  async function drive () {
    const out = []
    for (const p of pages) out.push(await visit(p))
    return out
  }

  let timer
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Chromium did not finish within ${timeoutMs} ms; its stderr:\n${stderr}`)), timeoutMs)
  })
  const gone = new Promise((resolve) => child.once('exit', resolve))
  const exited = gone.then((code) => { throw new Error(`Chromium exited (${code}) before the page was read; its stderr:\n${stderr}`) })
  exited.catch(() => {})
  return Promise.race([drive(), timeout, exited]).finally(async () => {
    clearTimeout(timer)
    if (child.exitCode !== null || child.signalCode !== null) return
    // a browser closed this way takes its renderer and GPU processes with it
    send('Browser.close').catch(() => {})
    const late = setTimeout(() => child.kill('SIGKILL'), 10000)
    await gone
    clearTimeout(late)
  })
}

module.exports = { visitPages }
