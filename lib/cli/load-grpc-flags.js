'use strict'
// The `benchrig load` flags of gRPC unary calls, with ghz's long names
// (lib/engine/options/grpc-options.js checks them; docs/load.md has ghz's
// flags side by side). -c, -a (ghz -n), -R (ghz -r), -d (ghz -z) and -t
// (ghz -t: the call's deadline, sent as grpc-timeout) are the run's own.
const last = (v) => (Array.isArray(v) ? v[v.length - 1] : v)

const GRPC = 'gRPC'

/** @type {import('./help.js').OptionSpec[]} */
const GRPC_OPTIONS = [
  { name: 'proto', type: 'string', value: 'FILE', group: GRPC, describe: 'the .proto defining the service (with --call: unary gRPC calls over HTTP/2; the URL gives the server, http:// or https://)' },
  { name: 'call', type: 'string', value: 'METHOD', group: GRPC, describe: 'the method to call, package.Service/Method' },
  { name: 'data', type: 'string', value: 'JSON', group: GRPC, describe: 'the request message as JSON, or @FILE of JSON (default {})' },
  { name: 'metadata', type: 'string', value: 'JSON', group: GRPC, describe: 'metadata of each call, a JSON object of name: value' }
]

function grpcOptions (args) {
  return { proto: last(args.proto), call: last(args.call), data: last(args.data), metadata: last(args.metadata) }
}

module.exports = { GRPC_OPTIONS, GRPC_GROUP: GRPC, grpcOptions }
