'use strict'
// What a side builder made (worktrees, temporary folders) is removed when the
// comparison ends, and also when it is cut short: at exit, and at a Ctrl-C or
// SIGTERM that would otherwise end the process with the signal's default
// action. compare's own SIGINT handler asks the run to stop after the current
// process; while a cleanup is armed, the builders' handler stays installed,
// so the default action never skips it: a repeated signal cleans up
// synchronously, then re-raises itself with the default action.

/** @type {Set<() => void>} */
const pending = new Set()
let installed = false
let signals = 0

function runAll () {
  for (const fn of [...pending]) {
    pending.delete(fn)
    try { fn() } catch { /* best effort: the next one still runs */ }
  }
}

function onExit () { runAll() }

/** @param {NodeJS.Signals} signal */
function onSignal (signal) {
  signals++
  // The first Ctrl-C belongs to compare (stop after the current run); when
  // nothing else listens, or at the second one, clean up and end as the
  // signal would have.
  const others = process.listenerCount(signal) - 1
  if (others > 0 && signals < 2) return
  runAll()
  uninstall()
  process.kill(process.pid, signal)
}

function install () {
  if (installed) return
  installed = true
  process.on('exit', onExit)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

function uninstall () {
  if (!installed) return
  installed = false
  signals = 0
  process.removeListener('exit', onExit)
  process.removeListener('SIGINT', onSignal)
  process.removeListener('SIGTERM', onSignal)
}

/**
 * Arms a synchronous cleanup; the returned function runs it now (once) and
 * disarms it.
 * @param {() => void} fn
 * @returns {() => void}
 */
function onCleanup (fn) {
  let done = false
  const once = () => {
    if (done) return
    done = true
    fn()
  }
  pending.add(once)
  install()
  return () => {
    pending.delete(once)
    if (pending.size === 0) uninstall()
    once()
  }
}

module.exports = { onCleanup }
