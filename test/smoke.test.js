'use strict'
const t = require('tap')
t.equal(require('../package.json').name, 'benchrig')
