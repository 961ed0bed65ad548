'use strict'
// Port of wrk's post example: every request is a form POST. The same run
// without a script: -m POST -b 'foo=bar&baz=quux' -H 'Content-Type: ...'.
//   benchrig load -c 1 -d 5 --script examples/wrk-scripts/post.js http://127.0.0.1:3000/
const body = 'foo=bar&baz=quux'

module.exports = {
  request (req) {
    req.method = 'POST'
    req.body = body
    req.headers['Content-Type'] = 'application/x-www-form-urlencoded'
    return req
  }
}
