'use strict'
// Port of wrk's delay example: before each request, a random pause of 10 to
// 50 ms. The pause is planned: it is not part of any request's latency.
//   benchrig load -c 4 -d 5 --script examples/wrk-scripts/delay.js http://127.0.0.1:3000/
module.exports = {
  delay () {
    return 10 + Math.floor(Math.random() * 41)
  }
}
