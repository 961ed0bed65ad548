'use strict'
// Loaded into every test process after tap's own preloads (.taprc node-arg).
//
// tap's runner puts its process tracker (@tapjs/processinfo) into every node
// process a test starts: an --import in NODE_OPTIONS, re-added by a spawn hook
// even when a test passes its own env. It costs about 0.25 CPU-s of start-up
// per process (node -e 0: 0.09 -> 0.33 CPU-s user), and the suite starts some
// 2,500 node processes (benchmark children, CLIs, servers, load generators).
// The tracker feeds tap's own coverage map and `--changed`, neither of which
// this project uses: coverage is c8's (NODE_V8_COVERAGE, inherited as usual).
// So the test process keeps the tracker, and its children start plain.
// test/helpers/untracked-children.test.js checks that this still holds.

// the spawn hook's listeners live on a process-wide singleton (process-on-spawn)
const hook = globalThis[Symbol.for('process-on-spawn@*:singletonId')]
if (hook && Array.isArray(hook.listeners)) hook.listeners.length = 0

const options = process.env.NODE_OPTIONS
if (options) {
  const kept = options.split(/\s+/).filter((o) => o !== '' && !/@tapjs[\\/]processinfo/.test(o))
  if (kept.length > 0) process.env.NODE_OPTIONS = kept.join(' ')
  else delete process.env.NODE_OPTIONS
}
