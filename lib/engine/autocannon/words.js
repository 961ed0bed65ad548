'use strict'
// autocannon's wording for the option errors its API reports. Code written
// for autocannon compares these messages (`err.message === 'timeout must be
// greater than 0'`), so the autocannon-shaped API (load(opts, cb), its
// promise and 'error' event, start()) gives them; `benchrig load` and the
// errors thrown by startRun() keep benchrig's own message, which names the
// flag and what to give. Only the message changes: the error keeps its class
// and `code`, and benchrig's message stays readable as `err.benchrigMessage`.
// An error with no autocannon counterpart keeps benchrig's message.

const FORM_TYPE = 'A \'type\' key with value \'text\' or \'file\' should be specified'

/** @type {[RegExp, (m: RegExpExecArray) => string|undefined][]} */
const RULES = [
  // a number < 0 is autocannon's "less than 0"; anything it cannot read is its "invalid format"
  [/^invalid -d\/--duration "(.*)":/, (m) => {
    const n = Number(m[1])
    if (m[1].trim() !== '' && Number.isFinite(n)) return n < 0 ? 'duration can not be less than 0' : undefined
    return 'duration entered was in an invalid format'
  }],
  [/^invalid -t\/--timeout "(.*)":/, (m) => (Number(m[1]) < 1 ? 'timeout must be greater than 0' : undefined)],
  [/^invalid -c\/--connections "(.*)":/, (m) => (Number(m[1]) < 1 ? 'connections can not be less than 1' : undefined)],
  [/^invalid -p\/--pipelining "(.*)":/, (m) => (Number(m[1]) < 1 ? 'pipelining factor can not be less than 1' : undefined)],
  [/^invalid -a\/--amount "(.*)":/, (m) => (Number(m[1]) < 1 ? 'amount can not be less than 1' : undefined)],
  [/^invalid -B\/--bailout "(.*)":/, (m) => (Number(m[1]) < 1 ? 'bailout threshold can not be less than 1' : undefined)],
  [/^invalid -r\/--connection-rate "(.*)":/, (m) => (Number(m[1]) < 1 ? 'connectionRate can not be less than 1' : undefined)],
  [/^no URL given:/, () => 'url or socketPath option required'],
  [/^connections \(\d+\) cannot be greater than amount/, () => 'connections cannot be greater than amount'],
  [/^load\(options, cb\): a callback cannot be used with forever/, () => 'should not use the callback parameter when the `forever` option is set to true. Use the `done` event on this event emitter'],
  // -F/--form (autocannon's lib/multipart.js words)
  [/^(cannot read -F\/--form file|invalid -F\/--form: not valid JSON)/, () => 'Invalid JSON or file where to get form data'],
  [/^invalid -F\/--form field "(.*)": a file field needs a "path"/, (m) => `Missing key 'path' in form object for key '${m[1]}'`],
  [/^invalid -F\/--form field "(.*)": a text field needs a "value"/, (m) => `Missing key 'value' in form object for key '${m[1]}'`],
  [/^invalid -F\/--form field "(.*)": "type" must be/, () => FORM_TYPE],
  // --har: an object given to the API (autocannon's parser), a file read by the CLI
  [/^invalid --har: no log\.entries array/, () => 'Could not parse HAR content: no entries found'],
  [/^invalid --har: entry (\d+) has no valid request/, (m) => `Could not parse HAR content: invalid request in entry #${m[1]}`],
  [/^cannot read --har "[^"]*": (.*)$/, (m) => `Failed to load HAR file content: ${m[1]}`],
  [/^invalid --har "[^"]*": not valid JSON \((.*)\)$/, (m) => `Failed to load HAR file content: ${m[1]}`]
]

/**
 * The error with autocannon's message when it has one (the same object,
 * its `benchrigMessage` set); any other error unchanged.
 * @template {unknown} E
 * @param {E} err
 * @returns {E}
 */
function inAutocannonWords (err) {
  if (!(err instanceof Error) || typeof err.message !== 'string') return err
  for (const [re, word] of RULES) {
    const m = re.exec(err.message)
    if (m === null) continue
    const message = word(m)
    if (message !== undefined) {
      Object.defineProperty(err, 'benchrigMessage', { value: err.message, enumerable: false, configurable: true, writable: true })
      err.message = message
    }
    break
  }
  return err
}

module.exports = { inAutocannonWords }
