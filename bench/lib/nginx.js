'use strict'
// Starts nginx with a configuration of our own (one worker, no master,
// `return 200`, 127.0.0.1 only, no access log), optionally pinned to CPUs
// with taskset, in a private temporary prefix. Used by the bench scripts and
// by tests that need a fast real server.
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? 'nginx'

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

function config (dir, port, body, h2c, opts) {
  const p = (f) => path.join(dir, f)
  const files = opts.files === undefined ? '' : `\n    location /files/ { alias ${opts.files}/; }`
  return `daemon off;
master_process off;
worker_processes 1;
pid ${p('nginx.pid')};
error_log ${p('error.log')} warn;
events { worker_connections 8192; multi_accept on; }
http {
  access_log off;
  keepalive_requests 1000000000;
  keepalive_timeout ${opts.keepaliveTimeout ?? '120s'};
  client_body_temp_path ${p('body')};
  proxy_temp_path ${p('proxy')};
  fastcgi_temp_path ${p('fastcgi')};
  uwsgi_temp_path ${p('uwsgi')};
  scgi_temp_path ${p('scgi')};
  default_type text/plain;
  server {
    listen 127.0.0.1:${port}${h2c ? ' http2' : ''} backlog=4096;
    location / { return 200 "${body}"; }${files}
  }
}
`
}

function waitListening (port, deadline) {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const s = net.connect(port, '127.0.0.1')
      s.once('connect', () => { s.destroy(); resolve() })
      s.once('error', () => {
        s.destroy()
        if (Date.now() > deadline) reject(new Error('nginx did not start listening'))
        else setTimeout(attempt, 50)
      })
    }
    attempt()
  })
}

/**
 * @param {{cpus?: string, body?: string, h2c?: boolean, keepaliveTimeout?: string, files?: string}} [opts] cpus: a taskset CPU list such as "1";
 *   h2c: HTTP/2 with prior knowledge on the port (`listen ... http2`, nginx 1.22: no HTTP/1.1 there);
 *   keepaliveTimeout: nginx's value (0 closes after every response); files: a directory served under /files/
 * @returns {Promise<{port: number, url: string, pid: number, stop: () => Promise<void>}>}
 */
async function startNginx (opts = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-nginx-'))
  const port = await freePort()
  const conf = path.join(dir, 'nginx.conf')
  fs.writeFileSync(conf, config(dir, port, opts.body ?? 'hello world', opts.h2c === true, opts))
  const argv = [NGINX, '-e', path.join(dir, 'error.log'), '-p', dir, '-c', conf]
  const useTaskset = opts.cpus !== undefined && spawnSync('taskset', ['--version']).status === 0
  const child = useTaskset
    ? spawn('taskset', ['-c', opts.cpus, ...argv], { stdio: 'ignore' })
    : spawn(argv[0], argv.slice(1), { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    await waitListening(port, Date.now() + 5000)
  } catch (err) {
    child.kill('SIGKILL')
    const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''
    throw new Error(`${err.message}: ${log.trim()}`)
  }
  return {
    port,
    pid: child.pid,
    url: `http://127.0.0.1:${port}/`,
    async stop () {
      child.kill('SIGTERM')
      await exited
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

module.exports = { startNginx, freePort }
