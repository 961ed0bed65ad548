'use strict'
// Every flag of autocannon's README (its command line), read by both
// parseArguments: autocannon's and benchrig's (which reads `benchrig load`'s
// flags). The option each flag sets must come out the same, and as the flag
// says (so a change on either side fails). In process: no run, no server.
const t = require('tap')
const path = require('node:path')
const { SIDES } = require('./_side-by-side.js')

const URL = 'http://127.0.0.1:9/'
const dir = t.testdir({ 'body.txt': 'file body', 'form.json': '{"a":{"type":"text","value":"v"}}', 'ca.pem': 'x' })
const file = (f) => path.join(dir, f)

/** [flags, the option it sets, the value expected on both sides] */
const FLAGS = [
  [['-c', '3'], 'connections', 3],
  [['--connections', '3'], 'connections', 3],
  [['-p', '2'], 'pipelining', 2],
  [['-d', '5'], 'duration', 5],
  [['-a', '7'], 'amount', 7],
  [['-L', '50'], 'sampleInt', 50],
  [['-S', '/tmp/s.sock'], 'socketPath', '/tmp/s.sock'],
  [['-w', '2'], 'workers', 2],
  [['-W', '[', '-c', '1', '-d', '2', ']'], 'warmup', (v) => v.connections === 1 && v.duration === 2],
  [['-m', 'POST'], 'method', 'POST'],
  [['-t', '3'], 'timeout', 3],
  [['-T', 'a title'], 'title', 'a title'],
  [['-b', 'the body'], 'body', 'the body'],
  [['-F', file('form.json')], 'form', file('form.json')],
  [['-i', file('body.txt')], 'body', 'file body'],
  [['-H', 'x-a=1'], 'headers', { 'x-a': '1' }],
  [['-B', '3'], 'bailout', 3],
  [['-M', '3'], 'maxConnectionRequests', 3],
  [['-O', '9'], 'maxOverallRequests', 9],
  [['-r', '5'], 'connectionRate', 5],
  [['-R', '5'], 'overallRate', 5],
  [['-R', '5', '-C'], 'ignoreCoordinatedOmission', true],
  [['-D', '4'], 'reconnectRate', 4],
  [['-n'], 'renderProgressBar', false],
  [['-l'], 'renderLatencyTable', true],
  [['-I'], 'idReplacement', true],
  [['-j'], 'json', true],
  [['-f'], 'forever', true],
  [['-s', 'sni.example'], 'servername', 'sni.example'],
  [['-x'], 'excludeErrorStats', true],
  [['-E', 'expected'], 'expectBody', 'expected'],
  [['--renderStatusCodes'], 'renderStatusCodes', true],
  [['--debug'], 'debug', true],
  [['--cert', file('ca.pem')], 'cert', file('ca.pem')],
  [['--key', file('ca.pem')], 'key', file('ca.pem')],
  [['--ca', file('ca.pem')], 'ca', [file('ca.pem')]],
  [['--on-port'], 'onPort', true]
]

for (const [flags, key, want] of FLAGS) {
  t.test(`${flags.join(' ')} -> ${key}`, async (t) => {
    const got = {}
    for (const [name, lib] of SIDES) {
      const mod = name === 'autocannon' ? lib : require('../../index.js')
      const err = console.error
      console.error = () => {}
      try {
        got[name] = mod.parseArguments([...flags, URL])?.[key]
      } finally {
        console.error = err
      }
      if (typeof want === 'function') t.ok(want(got[name]), `${name}: ${JSON.stringify(got[name])}`)
      else t.same(got[name], want, `${name}: ${key}`)
    }
  })
}

t.test('the help: no URL or -h prints it on stderr and returns undefined', async (t) => {
  for (const [name, lib] of SIDES) {
    const mod = name === 'autocannon' ? lib : require('../../index.js')
    const err = console.error
    let text = ''
    console.error = (s) => { text += s }
    try {
      t.equal(mod.parseArguments(['-h', URL]), undefined, `${name}: -h`)
    } finally {
      console.error = err
    }
    t.match(text, /-c.*connections/i, `${name}: the help names the flags`)
  }
})
