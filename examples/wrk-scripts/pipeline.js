'use strict'
// Port of wrk's pipeline example: three GETs (/?foo, /?bar, /?baz) written
// together on each connection, again and again. wrk puts them in one string
// that request() returns; here they are a sequence, and -p 3 --refill batch
// writes each round of three in one write, after the previous three are
// answered, as wrk does.
//   benchrig load -c 1 -d 5 -p 3 --refill batch --script examples/wrk-scripts/pipeline.js http://127.0.0.1:3000/
module.exports = {
  requests: [{ path: '/?foo' }, { path: '/?bar' }, { path: '/?baz' }]
}
