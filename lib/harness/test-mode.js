'use strict'
// The one test-mode duration (--test, `test`, --test-all): what a duration key
// of a configuration becomes, and how long a bench.http() load then runs, so
// the configuration printed is the load that ran. 0.25 s is also the floor of
// the builtin, autocannon and h2load adapters; wrk counts whole seconds, so its
// loads run 1 s (its adapter's minDuration).
module.exports = { TEST_DURATION: 0.25 }
