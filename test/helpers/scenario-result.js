'use strict'
// A result of the shape `benchrig load --scenarios` gives (issue 27: every
// scenario a complete result plus `scenario: {name, executor, startTime,
// duration, params}`, the top level their exact merge with the run's own
// thresholds), assembled from two real runs against a real node server on
// 127.0.0.1, for the tests of the outputs (text, HTML, Prometheus, YAML,
// merge). `browse` passes its thresholds; `checkout` gets 404s and dropped
// connections and fails one.
const fs = require('node:fs')
const path = require('node:path')
const { load } = require('../../index.js')
const { merge } = require('../../lib/engine/result/merge.js')
const { statusTarget } = require('./loopback.js')

/**
 * @param {any} t the tap test that owns the server
 */
async function scenarioResult (t) {
  const base = await statusTarget(t)
  // 100 ms interval rows: a timeline for the report's curves in runs shorter than a second
  const shape = { interval: 100 }
  const a = JSON.parse(JSON.stringify(await load({ url: `${base}/`, amount: 300, connections: 2, ...shape, thresholds: ['p99<5s', 'errors<1'] })))
  const b = JSON.parse(JSON.stringify(await load({ url: [`${base}/`, `${base}/missing`, `${base}/drop`], amount: 200, connections: 1, ...shape, thresholds: ['non2xx<1', 'p50<5s'] })))
  // a scenarios run's top level is the merge of its scenarios, without merge's own bookkeeping
  const { merge: _, ...overall } = merge([a, b], { names: ['browse', 'checkout'] })
  return {
    ...overall,
    thresholds: [{ expr: 'requests>=100', value: overall.requests.total, ok: overall.requests.total >= 100 }],
    scenarios: {
      browse: { ...a, scenario: { name: 'browse', executor: 'constant-vus', startTime: 0, duration: 30000, params: { vus: 2, duration: 30000 } } },
      checkout: {
        ...b,
        scenario: {
          name: 'checkout',
          executor: 'ramping-arrival-rate',
          tags: { team: 'shop', 'flow-step': 'pay', flow_step: 'dup' },
          startTime: 1500,
          duration: 90000,
          params: { startRate: 10, timeUnit: 1000, preAllocatedVUs: 2, stages: [{ target: 20, duration: 30000 }, { target: 0, duration: 60000 }] }
        }
      }
    }
  }
}

/**
 * A scenarios file for `benchrig load --scenarios` runs of about a second
 * at a bounded rate (little CPU): browse at 50 req/s for 1 s passes its
 * threshold (how many it sends depends on the machine: compare with the
 * run's own JSON); checkout, exactly 30 iterations on /missing from 0.5 s,
 * fails its own.
 * @param {string} dir where to write it
 * @param {string} base the target's origin
 * @returns {string} the file
 */
function scenarioFile (dir, base) {
  const file = path.join(dir, 'scenarios.json')
  fs.writeFileSync(file, JSON.stringify({
    scenarios: {
      browse: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2, thresholds: ['p99<5s'] },
      checkout: { executor: 'shared-iterations', vus: 1, iterations: 30, startTime: '500ms', url: `${base}/missing`, thresholds: ['non2xx<1'] }
    },
    thresholds: ['errors==0']
  }))
  return file
}

module.exports = { scenarioResult, scenarioFile }
