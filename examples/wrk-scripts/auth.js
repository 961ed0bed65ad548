'use strict'
// Port of wrk's auth example: ask /authenticate until a 200 carries an
// X-Token header, then request /resource with that token, for the rest of
// the run. State lives in module scope: one copy per thread (worker), shared
// by that thread's connections, as wrk's Lua globals are.
//   benchrig load -c 1 -d 5 --script examples/wrk-scripts/auth.js http://127.0.0.1:3000/
let token = null
let path = '/authenticate'

module.exports = {
  request (req) {
    req.path = path
    if (token !== null) req.headers['X-Token'] = token
    return req
  },
  response (status, headers) {
    // header names arrive in lower case
    if (token === null && status === 200 && headers['x-token'] !== undefined) {
      token = headers['x-token']
      path = '/resource'
    }
  }
}
