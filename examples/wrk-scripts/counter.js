'use strict'
// Port of wrk's counter example: each request goes to /<n> with the header
// X-Counter: <n>, n counting up from 0 in this thread (module scope).
//   benchrig load -c 1 -d 5 --script examples/wrk-scripts/counter.js http://127.0.0.1:3000/
let n = 0

module.exports = {
  request (req) {
    req.path = `/${n}`
    req.headers['X-Counter'] = String(n)
    n++
    return req
  }
}
