'use strict'
// Reading the Prometheus text format in tests: the samples of a text, and
// node_exporter's textfile collector (the real consumer, with its own strict
// parser) serving a folder of .prom files on 127.0.0.1.
const { spawn } = require('node:child_process')
const { freePort } = require('./loopback.js')

/** Sample lines of an exposition text as {"name{labels}": value}. */
function samples (text) {
  const out = {}
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    out[line.slice(0, at)] = Number(line.slice(at + 1))
  }
  return out
}

/**
 * Starts node_exporter with only the textfile collector on `dir` (stopped in
 * the test's teardown); scrape() gives its /metrics as samples.
 * @param {any} t @param {string} dir
 * @returns {Promise<{scrape: () => Promise<Record<string, number>>}>}
 */
async function textfileExporter (t, dir) {
  const port = await freePort()
  const child = spawn('prometheus-node-exporter', [
    '--collector.disable-defaults', '--collector.textfile',
    `--collector.textfile.directory=${dir}`,
    `--web.listen-address=127.0.0.1:${port}`
  ], { stdio: 'ignore' })
  t.teardown(() => child.kill())
  async function scrape () {
    // node_exporter answers once it has bound its port: wait for that, not for a time
    for (let i = 0; ; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`)
        return samples(await res.text())
      } catch (err) {
        if (i >= 300) throw err
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }
  return { scrape }
}

module.exports = { samples, textfileExporter }
