'use strict'
// Renders a local file (an SVG figure) to a PNG with headless Chromium, the
// way a reader's browser would, with nothing fetched from the network.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

/**
 * @param {string} file the page to open
 * @param {string} dir a scratch folder (the browser profile and the PNG go there)
 * @param {{width: number, height: number}} size the window
 * @returns {{png: Buffer|undefined, status: number|null, stderr: string}}
 */
function screenshot (file, dir, { width, height }) {
  const png = path.join(dir, 'shot.png')
  const r = spawnSync('chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--hide-scrollbars',
    `--user-data-dir=${path.join(dir, 'profile')}`,
    `--screenshot=${png}`,
    `--window-size=${width},${height}`,
    pathToFileURL(file).href
  ], { encoding: 'utf8', timeout: 120000 })
  return { png: fs.existsSync(png) ? fs.readFileSync(png) : undefined, status: r.status, stderr: r.stderr }
}

module.exports = { screenshot }
