'use strict'
// The action-validator binary for the tests of action.yml and the example
// workflows: where scripts/install-tools.sh puts it, or on PATH. Without it a
// test skips, or fails under BENCHRIG_REQUIRE_TOOLS=1.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')

function validator () {
  const local = path.join(ROOT, '.tools', 'action-validator', 'node_modules', '.bin', 'action-validator')
  if (fs.existsSync(local)) return local
  const r = spawnSync('action-validator', ['--version'], { encoding: 'utf8' })
  return r.error ? undefined : 'action-validator'
}

/** The binary, or undefined once `t` has skipped (or failed, when tools are required). */
function validatorOrSkip (t) {
  const bin = validator()
  if (bin) return bin
  const reason = 'action-validator is not installed (scripts/install-tools.sh installs @action-validator/cli into .tools/)'
  if (process.env.BENCHRIG_REQUIRE_TOOLS === '1') t.fail(`${reason}; BENCHRIG_REQUIRE_TOOLS=1 requires it`)
  else t.skip(reason)
  return undefined
}

module.exports = { validatorOrSkip }
