'use strict'
// benchrig load --scenarios examples/scenarios/mixed.js http://127.0.0.1:3000/
// k6's options.scenarios as a CommonJS module: the four other executors, a
// request sequence (one iteration is one pass of it), and a ramp.
module.exports = {
  scenarios: {
    // 4 connections send 200 iterations in all (a shared budget)
    warm: { executor: 'shared-iterations', vus: 4, iterations: 200, maxDuration: '30s' },
    // each of 5 connections makes exactly 20 passes of the two-request sequence
    users: {
      executor: 'per-vu-iterations',
      vus: 5,
      iterations: 20,
      startTime: '1s',
      requests: [
        { method: 'GET', path: '/login' },
        { method: 'GET', path: '/profile' }
      ]
    },
    // open connections ramp from 1 to 20 and back to 0
    ramp: {
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [{ duration: '3s', target: 20 }, { duration: '2s', target: 0 }],
      startTime: '2s'
    },
    // an arrival rate ramping from 10 to 100 iterations per second
    spike: {
      executor: 'ramping-arrival-rate',
      startRate: 10,
      timeUnit: '1s',
      preAllocatedVUs: 10,
      maxVUs: 50,
      stages: [{ duration: '2s', target: 100 }, { duration: '1s', target: 10 }],
      startTime: '3s',
      thresholds: ['p95<200ms']
    }
  },
  thresholds: ['errors==0']
}
