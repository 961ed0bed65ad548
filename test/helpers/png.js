'use strict'
// A PNG reader for tests: enough of the format to read what a browser's
// screenshot writes (8-bit greyscale, RGB or RGBA, not interlaced), so a test
// can count the pixels of a rendered figure without an image library.
const zlib = require('node:zlib')

const CHANNELS = { 0: 1, 2: 3, 4: 2, 6: 4 }

function paeth (a, b, c) {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/**
 * @param {Buffer} buf a PNG file
 * @returns {{width: number, height: number, channels: number, pixel: (x: number, y: number) => number[]}}
 */
function decodePng (buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG file')
  let pos = 8
  let width, height, depth, type, interlace
  const idat = []
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos)
    const kind = buf.toString('latin1', pos + 4, pos + 8)
    const data = buf.subarray(pos + 8, pos + 8 + len)
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      depth = data[8]
      type = data[9]
      interlace = data[12]
    } else if (kind === 'IDAT') idat.push(data)
    else if (kind === 'IEND') break
    pos += 12 + len
  }
  const channels = CHANNELS[type]
  if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour type ${type}, interlace ${interlace}`)
  const raw = zlib.inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const out = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[y * stride + i - channels] : 0
      const b = y > 0 ? out[(y - 1) * stride + i] : 0
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels] : 0
      const pred = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c)
      out[y * stride + i] = (line[i] + pred) & 0xff
    }
  }
  return {
    width,
    height,
    channels,
    pixel: (x, y) => [...out.subarray((y * width + x) * channels, (y * width + x + 1) * channels)]
  }
}

module.exports = { decodePng }
