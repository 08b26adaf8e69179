// Times a TF.js graph model on TF.js's XNNPACK-wasm backend (one thread) fed
// the inputs of our reference (REFDIR/input_<name>.npy, as
// scripts/models/reference.js wrote them), so that the peer computes what
// fallback-run computes: ../shared/peers/reference.sh feeds its own pattern,
// which differs from ours where reference.js takes a model's own values
// (rvm's downsample_ratio) or dtype.
//
// usage: NODE_PATH=<peers cache>/node_modules node wasm-latency.js MODEL.json REFDIR [RUNS]
//
// The peers' cache (../shared/peers/setup.sh, default
// ~/.cache/tfrt-fallback-peers) holds TF.js 4.22 with the wasm backend.
// Prints one JSON line: the median and minimum ms of RUNS (default 10) runs
// after 3 warm-ups.
'use strict';
const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs-core');
const wasm = require('@tensorflow/tfjs-backend-wasm');
const converter = require('@tensorflow/tfjs-converter');

// An IOHandler that reads model.json and its weight files from disk.
function diskModel(modelPath) {
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
      const dir = path.dirname(modelPath);
      const weightSpecs = [];
      const shards = [];
      for (const group of json.weightsManifest || []) {
        weightSpecs.push(...group.weights);
        for (const file of group.paths) shards.push(fs.readFileSync(path.join(dir, file)));
      }
      const bytes = Buffer.concat(shards);
      return {
        modelTopology: json.modelTopology, format: json.format, generatedBy: json.generatedBy,
        convertedBy: json.convertedBy, signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata, modelInitializer: json.modelInitializer,
        weightSpecs,
        weightData: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      };
    },
  };
}

// A .npy file (version 1 or 2, little-endian, C order) as a TF.js tensor;
// uint8 and bool become what TF.js holds them as (int32, bool).
function readNpy(file) {
  const data = fs.readFileSync(file);
  const major = data[6];
  const size = major === 1 ? data.readUInt16LE(8) : data.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = data.toString('latin1', start, start + size);
  const descr = /'descr':\s*'([^']*)'/.exec(header)[1];
  const dims = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim())
                   .filter((s) => s.length).map(Number);
  const body = data.subarray(start + size);
  const copy = new Uint8Array(body).buffer;
  switch (descr) {
    case '<f4': return tf.tensor(new Float32Array(copy), dims, 'float32');
    case '<i4': return tf.tensor(new Int32Array(copy), dims, 'int32');
    case '|u1': return tf.tensor(Int32Array.from(new Uint8Array(copy)), dims, 'int32');
    case '|b1': return tf.tensor(new Uint8Array(copy), dims, 'bool');
    default: throw new Error(`${file}: no TF.js dtype for ${descr}`);
  }
}

async function main() {
  const [modelPath, refDir, runsArg] = process.argv.slice(2);
  if (!modelPath || !refDir) {
    console.error('usage: node wasm-latency.js MODEL.json REFDIR [RUNS]');
    process.exit(2);
  }
  const runs = Number(runsArg || 10);
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  const model = await converter.loadGraphModel(diskModel(path.resolve(modelPath)));
  const meta = JSON.parse(fs.readFileSync(path.join(refDir, 'meta.cpu.json'), 'utf8'));
  const feeds = {};
  for (const info of meta.inputs)
    feeds[info.name] = readNpy(path.join(refDir, `input_${info.name.replace(/[/:]/g, '_')}.npy`));
  const outputNames = model.outputs.map((o) => o.name);
  const run = async () => {
    const result = meta.exec === 'executeAsync' ? await model.executeAsync(feeds, outputNames)
                                                : model.execute(feeds, outputNames);
    const outputs = Array.isArray(result) ? result : [result];
    outputs.forEach((t) => t.dataSync());
    outputs.forEach((t) => t.dispose());
  };
  for (let i = 0; i < 3; ++i) await run();
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ model: path.resolve(modelPath), backend: 'wasm',
                               threads: wasm.getThreadsCount(), runs,
                               medianMs: +times[times.length >> 1].toFixed(3),
                               minMs: +times[0].toFixed(3) }));
}

main().catch((e) => {
  console.error(`wasm-latency.js: ${process.argv[2]}: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
