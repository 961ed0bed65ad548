'use strict'
// Port of wrk's stop example: end the run after the 100th response. The
// result still covers those 100; no request is sent after the stop.
//   benchrig load -c 1 -d 30 --script examples/wrk-scripts/stop.js http://127.0.0.1:3000/
let me = null
let seen = 0

module.exports = {
  init (args, thread) {
    me = thread
  },
  response () {
    if (++seen === 100) me.stop()
  }
}
