'use strict'
// CPU time of the calling thread, so each worker's saturation is its own
// and not the whole process's: process.threadCpuUsage where node has it
// (>= 23.9), else Linux's /proc/thread-self/stat (utime + stime in clock
// ticks of 1/100 s, the Linux default), else undefined.
const fs = require('node:fs')

const TICKS_PER_SECOND = 100

/** @returns {number|undefined} µs of CPU used by this thread so far */
function threadCpuUs () {
  if (typeof process.threadCpuUsage === 'function') {
    const u = process.threadCpuUsage()
    return u.user + u.system
  }
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'latin1')
    // fields after the ")" that closes the command name: state is field 3,
    // utime and stime are fields 14 and 15
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(rest[11]) + Number(rest[12])) * (1e6 / TICKS_PER_SECOND)
  } catch {
    return undefined
  }
}

module.exports = { threadCpuUs }
