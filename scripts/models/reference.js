// Runs a TF.js graph model in TF.js on the pure-JS CPU backend (the oracle
// scripts/run-models.py compares fallback-run against) and saves its inputs
// and outputs as NumPy .npy files.
//
// usage: NODE_PATH=<cache>/tfjs/node_modules node reference.js MODEL.json OUTDIR
//            [--runs N] [--stamp TEXT]
//
// Inputs come from the model's signature (or its placeholders): every
// dimension left open becomes 1 when it is the first one (batch), 224
// otherwise; an input of unknown rank becomes a scalar. Element i (row-major)
// of every input is built from one step of a 32-bit linear congruential
// generator, u = uint32(i * 1103515245 + 12345), and v = (u >> 8) / 2^24, a
// float32 in [0, 1) that is exact; int32 and uint8 inputs take
// floor(v * 256), a pixel value; bool inputs take v >= 0.5. TF.js holds a
// uint8 input as int32; its .npy file has the model's dtype, uint8. The few
// inputs that are not data (a model's settings, its initial recurrent
// states) take the values the model's own application feeds, from
// INPUT_VALUES below.
//
// Outputs are written with the dtype TF.js reports; values TF.js keeps in
// another array type (an int32 array under a float32 dtype, as TF.js-cpu
// returns some of handtrack's outputs) are converted to that dtype.
//
// Writes OUTDIR/input_<name>.npy, OUTDIR/output_<k>_<name>.cpu.npy (k in the
// order of the model's outputs; '/' and ':' in names become '_') and
// OUTDIR/meta.cpu.json: the TF.js version, the input and output names, dtypes
// and shapes, and the median latency of N timed runs (default 1) after the
// first, untimed run whose outputs are saved. --stamp is copied into the meta
// file so a caller can tell which runner and lock file made it.
'use strict';
const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
const converter = require('@tensorflow/tfjs-converter');

function parseArgs(argv) {
  const args = { runs: 1, stamp: null, positional: [] };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--runs') args.runs = Number(argv[++i]);
    else if (argv[i] === '--stamp') args.stamp = argv[++i];
    else args.positional.push(argv[i]);
  }
  if (args.positional.length !== 2 || !(args.runs >= 1)) {
    console.error('usage: node reference.js MODEL.json OUTDIR [--runs N] [--stamp TEXT]');
    process.exit(2);
  }
  return args;
}

// An IOHandler that reads model.json and its weight files from disk. The
// weight files are concatenated in manifest order, the order of the specs.
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
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        modelInitializer: json.modelInitializer,
        weightSpecs,
        weightData: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      };
    },
  };
}

function patternValue(i) {
  const u = (Math.imul(i, 1103515245) + 12345) >>> 0;
  return (u >>> 8) / 16777216;
}

// Inputs that are settings or state rather than data, by model file name and
// input name: the values the model's application feeds.
const INPUT_VALUES = {
  // Robust Video Matting, as @vladmandic/human's segmentation/rvm.ts feeds
  // it: the first frame's recurrent states are zero, and the downsample
  // ratio is its default, 0.5 (the pattern's first element, 2.9e-6, would
  // ask the model for a zero-size ResizeBilinear).
  rvm: { r1i: 0, r2i: 0, r3i: 0, r4i: 0, downsample_ratio: 0.5 },
};

// The dtype the model declares for an input (its Placeholder's), which can
// differ from the one TF.js loads it as (uint8 becomes int32).
function declaredDType(json, name) {
  const node = ((json.modelTopology || {}).node || []).find((n) => n.name === name);
  const type = node && node.attr && node.attr.dtype && node.attr.dtype.type;
  return { DT_UINT8: 'uint8' }[type];
}

function makeInput(info, fixed) {
  // An input of unknown rank is fed a scalar (RVM's recurrent states).
  const shape = (info.shape || []).map((d, axis) => (d == null || d < 0 ? (axis === 0 ? 1 : 224) : d));
  const count = shape.reduce((a, b) => a * b, 1);
  let values;
  if (fixed !== undefined) {
    if (info.dtype !== 'float32') throw new Error(`input ${info.name}: fixed values are float32`);
    values = new Float32Array(count).fill(fixed);
  } else if (info.dtype === 'float32') {
    values = new Float32Array(count);
    for (let i = 0; i < count; ++i) values[i] = patternValue(i);
  } else if (info.dtype === 'int32') {
    values = new Int32Array(count);
    for (let i = 0; i < count; ++i) values[i] = Math.floor(patternValue(i) * 256);
  } else if (info.dtype === 'bool') {
    values = new Uint8Array(count);
    for (let i = 0; i < count; ++i) values[i] = patternValue(i) >= 0.5 ? 1 : 0;
  } else {
    throw new Error(`input ${info.name} has dtype ${info.dtype}; no pattern for it`);
  }
  return tf.tensor(values, shape, info.dtype);
}

// NumPy .npy format version 1.0: magic, version, little-endian header length,
// a Python dict literal padded with spaces to a 64-byte boundary and ended by
// '\n', then the raw little-endian data in C order.
function writeNpy(file, dtype, shape, data) {
  const descr = { float32: '<f4', int32: '<i4', bool: '|b1', uint8: '|u1' }[dtype];
  if (!descr) throw new Error(`cannot write dtype ${dtype} to ${file}`);
  const array = { float32: Float32Array, int32: Int32Array, bool: Uint8Array, uint8: Uint8Array }[dtype];
  if (!(data instanceof array)) data = array.from(data);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

const fileName = (tensorName) => tensorName.replace(/[/:]/g, '_');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const [modelPath, outDir] = args.positional;
  await tf.setBackend('cpu');
  await tf.ready();

  const loadStart = process.hrtime.bigint();
  const model = await converter.loadGraphModel(diskModel(path.resolve(modelPath)));
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;

  const json = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
  const fixedValues = INPUT_VALUES[path.basename(modelPath, '.json')] || {};
  const feeds = {};
  const inputs = [];
  for (const info of model.inputs) {
    feeds[info.name] = makeInput(info, fixedValues[info.name]);
    inputs.push({ name: info.name, dtype: declaredDType(json, info.name) || info.dtype,
                  shape: feeds[info.name].shape });
  }
  for (const name of Object.keys(fixedValues)) {
    if (!feeds[name]) throw new Error(`INPUT_VALUES names ${name}, which is no input of the model`);
  }
  const outputNames = model.outputs.map((o) => o.name);
  // execute() runs graphs without control flow or dynamic shapes and throws
  // (naming executeAsync) on the others, which executeAsync() runs.
  let useAsync = false;
  const run = async () => {
    const result = useAsync ? await model.executeAsync(feeds, outputNames)
                            : model.execute(feeds, outputNames);
    return Array.isArray(result) ? result : [result];
  };

  let outputs;
  try {
    outputs = await run();
  } catch (e) {
    if (!/executeAsync/.test(String(e && e.message))) throw e;
    useAsync = true;
    outputs = await run();
  }
  const outputData = outputs.map((t) => t.dataSync());
  const times = [];
  for (let i = 0; i < args.runs; ++i) {
    const start = process.hrtime.bigint();
    const result = await run();
    result.forEach((t) => t.dataSync());
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    result.forEach((t) => t.dispose());
  }
  times.sort((a, b) => a - b);

  fs.mkdirSync(outDir, { recursive: true });
  for (const info of inputs) {
    const t = feeds[info.name];
    writeNpy(path.join(outDir, `input_${fileName(info.name)}.npy`), info.dtype, t.shape, t.dataSync());
  }
  outputs.forEach((t, k) => writeNpy(
      path.join(outDir, `output_${k}_${fileName(outputNames[k])}.cpu.npy`), t.dtype, t.shape,
      outputData[k]));
  const meta = {
    model: path.resolve(modelPath),
    backend: 'cpu',
    tfjs: tf.version_core,
    stamp: args.stamp,
    exec: useAsync ? 'executeAsync' : 'execute',
    loadMs: +loadMs.toFixed(1),
    runs: args.runs,
    medianMs: +times[times.length >> 1].toFixed(3),
    minMs: +times[0].toFixed(3),
    inputs,
    outputs: outputs.map((t, k) => ({ name: outputNames[k], dtype: t.dtype, shape: t.shape })),
  };
  fs.writeFileSync(path.join(outDir, 'meta.cpu.json'), JSON.stringify(meta, null, 1) + '\n');
  console.log(JSON.stringify({ model: meta.model, medianMs: meta.medianMs,
                               outputs: meta.outputs.length }));
}

main().catch((e) => {
  console.error(`reference.js: ${process.argv[2]}: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
