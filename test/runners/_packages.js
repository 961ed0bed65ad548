'use strict'
// The runners' real packages from the npm registry, installed once into a
// cache folder shared by the test files of one run (and kept between runs:
// the folder's name is the hash of the specs), never into the repository's
// node_modules. Two files that need it at once: the first installs into a
// temporary folder and renames it into place; the other waits for it.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawnOutput } = require('../helpers/spawn-output.js')

const SPECS = ['tinybench@6.2.5', 'mitata@1.0.34', 'benchmark@2.1.4', 'bench-node@0.15.0', 'vitest@3.2.7', 'vite@7']

const DIR = path.join(process.env.BENCHRIG_TEST_CACHE || os.tmpdir(), `benchrig-runners-${crypto.createHash('sha256').update(SPECS.join(' ')).digest('hex').slice(0, 12)}`)

/**
 * The node_modules folder holding every runner, or a reason it could not be made.
 * @returns {Promise<{nodeModules?: string, skip?: string}>}
 */
async function runnerModules () {
  const nodeModules = path.join(DIR, 'node_modules')
  if (fs.existsSync(path.join(DIR, 'done'))) return { nodeModules }
  const tmp = fs.mkdtempSync(`${DIR}.tmp-`)
  fs.writeFileSync(path.join(tmp, 'package.json'), '{"name":"benchrig-test-runners","version":"1.0.0","private":true}\n')
  const r = await spawnOutput('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...SPECS], { cwd: tmp })
  if (r.code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true })
    const why = r.stderr.trim().split('\n').slice(-3).join(' ')
    if (fs.existsSync(path.join(DIR, 'done'))) return { nodeModules }
    if (/ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|network/i.test(why) && process.env.BENCHRIG_REQUIRE_TOOLS !== '1') return { skip: `the npm registry is not reachable: ${why}` }
    throw new Error(`npm install ${SPECS.join(' ')} failed: ${why}`)
  }
  fs.writeFileSync(path.join(tmp, 'done'), '')
  try {
    fs.renameSync(tmp, DIR)
  } catch {
    // another test file made it meanwhile: keep theirs
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return { nodeModules }
}

module.exports = { runnerModules, SPECS }
