'use strict'
// Port of wrk's setup example: number each thread in setup(), count its
// requests and responses in the thread, and report them per thread at the
// end. setup() and done() run in the main thread; with -w > 1 the other
// hooks run in workers, so the counts travel through thread.set()/get().
//   benchrig load -c 4 -w 2 -d 5 --script examples/wrk-scripts/setup.js http://127.0.0.1:3000/
const threads = [] // main thread: every thread object setup() saw
let next = 1
let me = null // this thread's object (init)

module.exports = {
  setup (thread) {
    thread.set('id', next++)
    threads.push(thread)
  },
  init (args, thread) {
    me = thread
    me.set('requests', 0)
    me.set('responses', 0)
    process.stderr.write(`thread ${me.get('id')} created\n`)
  },
  request (req) {
    me.set('requests', me.get('requests') + 1)
    return req
  },
  response () {
    me.set('responses', me.get('responses') + 1)
  },
  done () {
    return threads.map((t) => `thread ${t.get('id')} made ${t.get('requests')} requests and got ${t.get('responses')} responses`).join('\n') + '\n'
  }
}
