'use strict'
// What to tell the user when no connection of a run succeeded, by the error
// code the sockets reported: a refused connection, a certificate the TLS
// check rejected and a local address the kernel cannot use are different
// problems with different fixes.

// node's and OpenSSL's codes for a certificate the client rejected
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID',
  'CERT_REVOKED', 'CERT_UNTRUSTED', 'CERT_REJECTED', 'CERT_SIGNATURE_FAILURE', 'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'
])

/**
 * @param {string} why the first connect (or read) error: a code such as ECONNREFUSED, or a message
 * @param {{h2?: boolean, localAddresses?: string[]}} opts
 * @returns {string} what happened and what to do
 */
function connectHint (why, opts) {
  if (CERT_CODES.has(why)) {
    return 'the server\'s TLS certificate was rejected (--rejectUnauthorized checks it): pass its CA with --ca FILE, ' +
      'use the host name it was issued for (or -s/--servername), or drop --rejectUnauthorized to accept any certificate'
  }
  if (why === 'EADDRNOTAVAIL') {
    return opts.localAddresses !== undefined && opts.localAddresses.length > 0
      ? 'a --local-address is not an address of this machine (or its ports are used up): give addresses from `ip addr`'
      : 'the kernel has no local port or address left for a new connection (too many connections in TIME_WAIT, or a target address it cannot reach from here): fewer -c, a wider net.ipv4.ip_local_port_range, or check the URL'
  }
  if (why === 'ENOTFOUND' || why === 'EAI_AGAIN') return 'the host name does not resolve: check the URL'
  if (why === 'ECONNREFUSED') return 'nothing listens there: is the server running and the URL right?'
  if (opts.h2) {
    return 'with --h2 the server must speak HTTP/2: h2c with prior knowledge for http:// (e.g. benchrig serve --h2c, nginx "listen ... http2"), ALPN h2 for https://'
  }
  return 'is the server running and the URL right?'
}

module.exports = { connectHint, CERT_CODES }
