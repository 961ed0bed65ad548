'use strict'
// Runs a command to its end and collects what it printed: the one way the
// tests spawn a CLI (benchrig, run.js, scatter.js, a tool) and read its output.
const { spawn } = require('node:child_process')

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & {input?: string|Buffer, onStdout?: (stdout: string, child: import('node:child_process').ChildProcess) => void}} [options]
 *   spawn's options; `input` is written to stdin (else stdin is closed), and
 *   `onStdout` sees the output so far at each chunk
 * @returns {Promise<{code: number|null, stdout: string, stderr: string}>} rejects only when the command cannot start
 */
function spawnOutput (cmd, args, { input, onStdout, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d; onStdout?.(stdout, child) })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    if (input !== undefined) child.stdin.end(input)
  })
}

module.exports = { spawnOutput }
