'use strict'
// The one registry of benchrig's error classes. Every error a user can cause
// carries a stable code (BENCHRIG_ERR_*) and a message that says what to do,
// naming the flag, key or file. Entry points print `message` alone (no stack)
// for these, and set process.exitCode to `exitCode`.

class BenchrigError extends Error {
  /**
   * @param {string} code   stable identifier, e.g. 'BENCHRIG_ERR_INVALID_ARG'
   * @param {string} message what went wrong and what to do about it
   * @param {{exitCode?: number, cause?: unknown}} [options]
   */
  constructor (code, message, options = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'BenchrigError'
    this.code = code
    this.exitCode = options.exitCode ?? 1
  }
}

/** Bad flag, argument, configuration value or file given by the user (exit 2). */
class UsageError extends BenchrigError {
  constructor (message, code = 'BENCHRIG_ERR_INVALID_ARG') {
    super(code, message, { exitCode: 2 })
    this.name = 'UsageError'
  }
}

/** An external tool (wrk, h2load, Rscript, ...) is missing. */
class ToolMissingError extends BenchrigError {
  constructor (tool, howToGet) {
    super('BENCHRIG_ERR_TOOL_MISSING', `${tool} is not installed: ${howToGet}`)
    this.name = 'ToolMissingError'
    this.tool = tool
  }
}

/** A run that measured nothing or failed at run time (unreachable target, tool failure). */
class RunError extends BenchrigError {
  constructor (message, code = 'BENCHRIG_ERR_RUN') {
    super(code, message)
    this.name = 'RunError'
  }
}

/** True for errors whose message is meant for the user as it is (no stack trace). */
function isUserFacing (err) {
  return err instanceof BenchrigError
}

module.exports = { BenchrigError, UsageError, ToolMissingError, RunError, isUserFacing }
