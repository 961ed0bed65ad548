'use strict'
// autocannon's Client API, one per connection: given to setupClient and as
// the first argument of the 'response' event. Its setters change the request
// the connection sends next (or the whole sequence), through the connection's
// DynamicSource. It is an EventEmitter: 'headers', 'body', 'response' and
// 'reset' are emitted only when someone listens.
const { EventEmitter } = require('node:events')
const { UsageError } = require('../../errors.js')

const NO_BODY = Buffer.alloc(0)

/**
 * autocannon's `client.parser` (http-parser-js's), read-only: `chunk` is the
 * body of the connection's last response (http-parser-js's is the last
 * chunk read from the socket, head and body).
 */
class ParserView {
  #client
  /** @param {Client} client */
  constructor (client) { this.#client = client }
  get chunk () { return this.#client.lastBody }
}

class Client extends EventEmitter {
  /** the body of the last response, with a 'response' listener from the start (else empty) */
  lastBody = NO_BODY
  /** @type {ParserView|undefined} */
  #parser
  /**
   * @param {number} id the connection id
   * @param {import('./dynamic-source.js').DynamicSource|null} source null on a static run
   * @param {(r: object) => object} toSpec completes a partial request with the run's defaults
   */
  constructor (id, source, toSpec) {
    super()
    this.id = id
    this.source = source
    this.toSpec = toSpec
  }

  #current () {
    if (this.source === null) {
      throw new UsageError('the Client setters need the run to know it at the start: attach the \'response\' listener before the run starts, or use setupClient')
    }
    return this.source.next
  }

  setHeaders (headers) {
    const i = this.#current()
    this.source.setRequest(i, { ...this.source.requests[i], headers: { ...headers } })
  }

  setBody (body) {
    const i = this.#current()
    this.source.setRequest(i, { ...this.source.requests[i], body })
  }

  setHeadersAndBody (headers, body) {
    const i = this.#current()
    this.source.setRequest(i, { ...this.source.requests[i], headers: { ...headers }, body })
  }

  setRequest (request) {
    const i = this.#current()
    this.source.setRequest(i, this.toSpec({ ...this.source.requests[i], ...request }))
  }

  /**
   * autocannon's client.requestIterator.currentRequest: the request this
   * connection sends next (method, path, headers, body), to read.
   */
  get requestIterator () {
    const source = this.source
    return { get currentRequest () { return source === null ? undefined : source.requests[source.next] } }
  }

  get parser () {
    this.#parser ??= new ParserView(this)
    return this.#parser
  }

  setRequests (requests) {
    this.#current()
    if (!Array.isArray(requests) || requests.length === 0) throw new UsageError('client.setRequests(requests): give a non-empty array')
    this.source.setRequests(requests.map((r) => this.toSpec(r)))
  }
}

module.exports = { Client }
