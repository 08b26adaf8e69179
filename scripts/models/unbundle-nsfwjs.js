// Writes one of nsfwjs's bundled graph models as a plain TF.js model folder.
//
// usage: node unbundle-nsfwjs.js SRC OUT
//   SRC: <nsfwjs package>/dist/models/<model>, holding model.min.js and one
//        <shard>.min.js per weight file (UMD bundles: model.min.js exports the
//        model.json object, each shard bundle the shard's bytes in base64).
//   OUT: gets model.json and the binary weight shards it names.
//
// The bundles are evaluated in an empty V8 context (node:vm) with only a
// CommonJS `module` object: they get no require, no process, no file system.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

function evaluateBundle(file) {
  const module = { exports: {} };
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), { module, exports: module.exports },
                     { filename: file, timeout: 60000 });
  return module.exports;
}

function main() {
  const [src, out] = process.argv.slice(2);
  if (!src || !out) {
    console.error('usage: node unbundle-nsfwjs.js SRC OUT');
    process.exit(2);
  }
  const model = evaluateBundle(path.join(src, 'model.min.js'));
  if (!model || model.format !== 'graph-model' || !Array.isArray(model.weightsManifest))
    throw new Error(`${src}/model.min.js does not export a TF.js graph model`);
  fs.mkdirSync(out, { recursive: true });
  for (const group of model.weightsManifest) {
    for (const shard of group.paths) {
      if (path.basename(shard) !== shard) throw new Error(`unexpected shard path ${shard}`);
      const base64 = evaluateBundle(path.join(src, shard + '.min.js'));
      if (typeof base64 !== 'string') throw new Error(`${shard}.min.js does not export a string`);
      fs.writeFileSync(path.join(out, shard), Buffer.from(base64, 'base64'));
    }
  }
  fs.writeFileSync(path.join(out, 'model.json'), JSON.stringify(model));
}

main();
