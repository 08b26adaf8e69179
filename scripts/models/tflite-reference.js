// Runs a .tflite model in TFLite itself (TFLite's C++ runtime compiled to
// WebAssembly, as @tensorflow/tfjs-tflite ships it) and saves its inputs and
// outputs as NumPy .npy files: the reference for fallback-run on .tflite.
//
// usage: NODE_PATH=<cache>/tflite/node_modules node tflite-reference.js
//            MODEL.tflite OUTDIR [--input NAME=FILE.npy ...] [--xnnpack]
//            [--no-simd] [--runs N] [--stateful] [--stamp TEXT]
//
// The runtime is the package's Emscripten module (wasm/tflite_web_api_cc*.js),
// loaded directly with the wasm bytes read from disk: no fetch, worker or
// tfjs-core. It is TFLiteWebModelRunner, TFLite's InterpreterBuilder with the
// BuiltinOpResolver and one thread. That resolver applies XNNPACK as its
// default delegate and the package has no option against it, so by default
// the wasm is patched before it is compiled: the function that creates the
// default delegate (the one that logs "Created TensorFlow Lite XNNPACK
// delegate for CPU.") returns no delegate, as a build without XNNPACK does,
// and every node runs on TFLite's builtin kernels. The per-node profile
// checks it: no node may run in a delegate. --xnnpack keeps the delegate.
// --no-simd takes the build without WebAssembly SIMD (default: with).
//
// Inputs come from --input (NAME is a tensor name or an input's index; the
// file's dtype and shape must be the tensor's) or are made: element i
// (row-major) of every input is built from a 32-bit linear congruential
// generator, u = uint32(i * 1103515245 + 12345), v = (u >> 8) / 2^24, a
// float32 in [0, 1) (as reference.js does); float inputs take v, integer
// inputs floor(v * 256) (int8: minus 128), bool inputs v >= 0.5.
//
// Writes OUTDIR/input_<i>.npy, OUTDIR/output_<i>.npy (i in the model's
// order; dtype and shape as TFLite reports them) and OUTDIR/meta.json: the
// names, dtypes and shapes, the runtime (build, XNNPACK or not, threads), the
// node types the profile saw with their counts, the load time and the first
// and median run times of --runs N (default 3) further runs on a second
// interpreter without the profiler, whose outputs must be bitwise the
// first's. With --stateful (a model with variables or tables, whose outputs
// change from run to run) they are not compared: run k of the second
// interpreter, which starts from fresh resources, is saved as
// OUTDIR/output_<i>_run<k>.npy (k from 1; run 1 is output_<i>.npy's). When TFLite cannot load or run the model (a MediaPipe custom op,
// a dtype the package cannot expose), meta.json says so in "error", with
// TFLite's log, and the exit code is 1.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

function usage() {
  console.error('usage: node tflite-reference.js MODEL.tflite OUTDIR [--input NAME=FILE.npy ...] ' +
                '[--xnnpack] [--no-simd] [--runs N] [--stateful] [--stamp TEXT]');
  process.exit(2);
}

function parseArgs(argv) {
  const args = { inputs: [], xnnpack: false, simd: true, runs: 3, stateful: false, stamp: null,
                 positional: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--input') {
      const m = /^([^=]+)=(.+)$/.exec(argv[++i] || '');
      if (!m) usage();
      args.inputs.push({ key: m[1], file: m[2] });
    } else if (a === '--xnnpack') args.xnnpack = true;
    else if (a === '--no-simd') args.simd = false;
    else if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--stateful') args.stateful = true;
    else if (a === '--stamp') args.stamp = argv[++i];
    else if (a.startsWith('--')) usage();
    else args.positional.push(a);
  }
  if (args.positional.length !== 2 || !(args.runs >= 0)) usage();
  return args;
}

// The package's folder: through NODE_PATH, else in the cache fetch.py fills.
function packageDir() {
  const cache = process.env.TFRT_FALLBACK_MODELS_CACHE ||
                path.join(require('os').homedir(), '.cache', 'tfrt-fallback-models');
  const json = require.resolve('@tensorflow/tfjs-tflite/package.json',
                               { paths: [path.join(cache, 'tflite', 'node_modules')] });
  return path.dirname(json);
}

// ---- The wasm patch that leaves out the default XNNPACK delegate ----------

function leb(bytes, pos, signed) {
  let result = 0, shift = 0, byte;
  do {
    byte = bytes[pos.i++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  if (signed && (byte & 0x40)) result -= 2 ** shift;
  return result;
}

function slebBytes(value) {
  const out = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && (byte & 0x40))) return out.concat(byte);
    out.push(byte | 0x80);
  }
}

function indexOfBytes(haystack, needle, from, to) {
  const at = haystack.subarray(from, to).indexOf(Buffer.from(needle));
  return at < 0 ? -1 : from + at;
}

// Returns a copy of the wasm module `bytes` in which the std::function that
// BuiltinOpResolver registers as its default delegate creator (TFLite's
// MaybeCreateXNNPACKDelegate, inlined) returns a null delegate, with the
// same deleter. Throws when the module is not shaped as expected.
function withoutDefaultXnnpack(bytes) {
  const sections = {};
  for (const pos = { i: 8 }; pos.i < bytes.length;) {
    const id = bytes[pos.i++];
    const size = leb(bytes, pos);
    sections[id] = { start: pos.i, end: pos.i + size };
    pos.i += size;
  }
  // Function types, the functions' type indices and the imported functions.
  const types = [];
  let pos = { i: sections[1].start };
  for (let n = leb(bytes, pos); n > 0; --n) {
    if (bytes[pos.i++] !== 0x60) throw new Error('wasm: unexpected type form');
    const valueTypes = () => {
      const count = leb(bytes, pos);
      pos.i += count;
      return [...bytes.subarray(pos.i - count, pos.i)];
    };
    const params = valueTypes();
    types.push({ params, results: valueTypes() });
  }
  const functionTypes = [];
  pos = { i: sections[3].start };
  for (let n = leb(bytes, pos); n > 0; --n) functionTypes.push(leb(bytes, pos));
  // The string's address in linear memory, from the active data segments.
  const text = Buffer.from('Created TensorFlow Lite XNNPACK delegate for CPU.\0', 'latin1');
  let address = -1;
  pos = { i: sections[11].start };
  for (let n = leb(bytes, pos); n > 0 && address < 0; --n) {
    const flags = leb(bytes, pos);
    let base = null;
    if (flags === 0 || flags === 2) {
      if (flags === 2) leb(bytes, pos);
      if (bytes[pos.i++] !== 0x41) throw new Error('wasm: data segment offset is no i32.const');
      base = leb(bytes, pos, true);
      if (bytes[pos.i++] !== 0x0b) throw new Error('wasm: data segment offset is no constant');
    }
    const size = leb(bytes, pos);
    const at = indexOfBytes(bytes, text, pos.i, pos.i + size);
    if (at >= 0 && base !== null) address = base + at - pos.i;
    pos.i += size;
  }
  if (address < 0) throw new Error('wasm: no "Created TensorFlow Lite XNNPACK delegate" string');
  // The one function body that takes the string's address as a constant.
  const pattern = [0x41, ...slebBytes(address)];
  const found = [];
  pos = { i: sections[10].start };
  for (let n = leb(bytes, pos), k = 0; k < n; ++k) {
    const size = leb(bytes, pos);
    if (indexOfBytes(bytes, pattern, pos.i, pos.i + size) >= 0) {
      found.push({ start: pos.i, end: pos.i + size, type: types[functionTypes[k]] });
    }
    pos.i += size;
  }
  if (found.length !== 1) {
    throw new Error(`wasm: ${found.length} functions log the XNNPACK delegate`);
  }
  const body = found[0];
  // void invoke(unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>* result,
  //             <the functor>*, int* num_threads): three i32, no result.
  const t = body.type;
  if (t.params.join() !== '127,127,127' || t.results.length !== 0) {
    throw new Error('wasm: the XNNPACK delegate creator is not void(i32, i32, i32)');
  }
  // It ends storing the delegate and its deleter into *result:
  //   local.get 0; i32.const DELETER; i32.store offset=4;
  //   local.get 0; local.get L; i32.store offset=0; ...
  const tail = bytes.subarray(Math.max(body.start, body.end - 40), body.end);
  let deleter = null;
  for (let i = tail.length - 1; i >= 0 && deleter === null; --i) {
    if (tail[i] !== 0x20 || tail[i + 1] !== 0x00 || tail[i + 2] !== 0x41) continue;
    const p = { i: i + 3 };
    const value = leb(tail, p, true);
    const rest = [0x36, 0x02, 0x04, 0x20, 0x00, 0x20];
    if (rest.every((b, k) => tail[p.i + k] === b)) deleter = value;
  }
  if (deleter === null) {
    throw new Error('wasm: the XNNPACK delegate creator does not end as expected');
  }
  const code = [0x00,                                           // no locals
                0x20, 0x00, 0x41, 0x00, 0x36, 0x02, 0x00,       // result->ptr = nullptr
                0x20, 0x00, 0x41, ...slebBytes(deleter), 0x36, 0x02, 0x04];  // ->deleter
  const size = body.end - body.start;
  const patched = Buffer.from(bytes);
  patched.fill(0x01, body.start, body.end - 1);                  // nop ...
  patched.set(code, body.start);
  patched[body.end - 1] = 0x0b;                                 // end
  if (code.length >= size) throw new Error('wasm: the XNNPACK delegate creator is too small');
  return patched;
}

// ---- .npy ------------------------------------------------------------------

const DTYPES = {
  float32: { descr: '<f4', array: Float32Array },
  float64: { descr: '<f8', array: Float64Array },
  int8: { descr: '|i1', array: Int8Array },
  uint8: { descr: '|u1', array: Uint8Array },
  bool: { descr: '|b1', array: Uint8Array },
  int16: { descr: '<i2', array: Int16Array },
  int32: { descr: '<i4', array: Int32Array },
  uint32: { descr: '<u4', array: Uint32Array },
};

// NumPy .npy format version 1.0: magic, version, little-endian header length,
// a Python dict literal padded with spaces to a 64-byte boundary and ended by
// '\n', then the raw little-endian data in C order.
function writeNpy(file, dtype, shape, data) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${DTYPES[dtype].descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]));
}

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const v1 = bytes[6] === 1;
  const headerLength = v1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (v1 ? 10 : 12) + headerLength;
  const header = bytes.toString('latin1', v1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1].replace(/^=/, '<');
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter((s) => s.trim())
      .map(Number);
  const dtype = Object.keys(DTYPES).find((d) => DTYPES[d].descr === descr) ||
                (descr === '|i1' ? 'int8' : descr === '|u1' ? 'uint8' : null);
  if (!dtype) throw new Error(`${file}: dtype ${descr} is not supported`);
  const copy = new Uint8Array(bytes.subarray(start)).buffer;
  return { dtype, shape, data: new DTYPES[dtype].array(copy) };
}

// ---- Running ---------------------------------------------------------------

function patternValue(i) {
  const u = (Math.imul(i, 1103515245) + 12345) >>> 0;
  return (u >>> 8) / 16777216;
}

function makeInput(dtype, count) {
  const values = new DTYPES[dtype].array(count);
  for (let i = 0; i < count; ++i) {
    const v = patternValue(i);
    if (dtype === 'float32' || dtype === 'float64') values[i] = v;
    else if (dtype === 'bool') values[i] = v >= 0.5 ? 1 : 0;
    else if (dtype === 'int8') values[i] = Math.floor(v * 256) - 128;
    else values[i] = Math.floor(v * 256);
  }
  return values;
}

function vectorToArray(vector) {
  const out = [];
  for (let i = 0; i < vector.size(); ++i) out.push(vector.get(i));
  vector.delete();
  return out;
}

const tensorInfo = (t) => ({
  name: t.name,
  dtype: t.dataType,
  shape: t.shape === '' ? [] : t.shape.split(',').map(Number),
});

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const [modelPath, outDir] = args.positional;
  const dir = packageDir();
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const build = args.simd ? 'tflite_web_api_cc_simd' : 'tflite_web_api_cc';
  const modelBytes = fs.readFileSync(modelPath);
  const meta = {
    model: path.resolve(modelPath),
    sha256: crypto.createHash('sha256').update(modelBytes).digest('hex'),
    runtime: `TFLite (@tensorflow/tfjs-tflite ${version}, wasm/${build}.wasm)`,
    xnnpack: args.xnnpack,
    threads: 1,
    stamp: args.stamp,
  };
  fs.mkdirSync(outDir, { recursive: true });
  const log = [];
  const fail = (message) => {
    meta.error = message;
    meta.log = log;
    fs.writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
    console.error(`tflite-reference.js: ${modelPath}: ${message}` +
                  (log.length ? '\n  ' + log.join('\n  ') : ''));
    process.exit(1);
  };

  let wasm = fs.readFileSync(path.join(dir, 'wasm', build + '.wasm'));
  if (!args.xnnpack) wasm = withoutDefaultXnnpack(wasm);
  const factory = require(path.join(dir, 'wasm', build + '.js'));
  const tflite = await factory({ wasmBinary: wasm, print: (s) => log.push(s),
                                 printErr: (s) => log.push(s) });

  const modelPtr = tflite._malloc(modelBytes.length);
  tflite.HEAPU8.set(modelBytes, modelPtr);
  const create = (profile) => {
    const result = tflite.TFLiteWebModelRunner.CreateFromBufferAndOptions(
        modelPtr, modelBytes.length,
        { numThreads: 1, enableProfiling: profile, maxProfilingBufferEntries: 16384 });
    if (!result.ok()) {
      const errors = [...new Set(log.filter((line) => /^ERROR: /.test(line))
                                    .map((line) => line.slice(7)))];
      fail(`TFLite cannot load the model (${result.errorMessage()})` +
           (errors.length ? ': ' + errors.join(' ') : ''));
    }
    return result.value();
  };
  const loadStart = process.hrtime.bigint();
  const runner = create(true);
  meta.loadMs = +(Number(process.hrtime.bigint() - loadStart) / 1e6).toFixed(1);

  const inputTensors = vectorToArray(runner.GetInputs());
  meta.inputs = inputTensors.map(tensorInfo);
  const given = {};
  for (const { key, file } of args.inputs) {
    const index = meta.inputs.findIndex((t) => t.name === key);
    const i = index >= 0 ? index : /^\d+$/.test(key) ? Number(key) : -1;
    if (!(i >= 0 && i < meta.inputs.length)) fail(`--input ${key}: no such input`);
    given[i] = readNpy(file);
  }
  const feeds = meta.inputs.map((info, i) => {
    if (!DTYPES[info.dtype]) fail(`input ${i} (${info.name}): tfjs-tflite cannot expose it`);
    const count = info.shape.reduce((a, b) => a * b, 1);
    const g = given[i];
    if (g && (g.dtype !== info.dtype || g.shape.join() !== info.shape.join())) {
      fail(`input ${i} (${info.name}): the file is ${g.dtype}[${g.shape}], ` +
           `the model wants ${info.dtype}[${info.shape}]`);
    }
    return g ? g.data : makeInput(info.dtype, count);
  });
  const setInputs = (tensors) => tensors.forEach((t, i) => t.data().set(feeds[i]));
  setInputs(inputTensors);

  const checkOutputs = (tensors) => tensors.map(tensorInfo).map((info, i) => {
    if (!DTYPES[info.dtype]) fail(`output ${i} (${info.name}): tfjs-tflite cannot expose it`);
    return info;
  });
  checkOutputs(vectorToArray(runner.GetOutputs()));

  let start = process.hrtime.bigint();
  if (!runner.Infer()) fail('TFLite failed to run the model');
  meta.firstRunMs = +(Number(process.hrtime.bigint() - start) / 1e6).toFixed(3);
  // The outputs are taken after the run: a dynamic output (its shape
  // computed by the run) gets its shape and buffer then.
  const outputTensors = vectorToArray(runner.GetOutputs());
  meta.outputs = checkOutputs(outputTensors);
  const outputs = outputTensors.map((t) => t.data().slice());

  const nodes = {};
  for (const item of vectorToArray(runner.GetProfilingResults())) {
    nodes[item.nodeType] = (nodes[item.nodeType] || 0) + 1;
  }
  meta.nodeTypes = nodes;
  const delegated = Object.keys(nodes).filter((type) => /delegate/i.test(type));
  if (!args.xnnpack && delegated.length) fail(`nodes ran in a delegate: ${delegated.join(', ')}`);
  meta.delegatedNodes = delegated.reduce((n, type) => n + nodes[type], 0);

  if (args.runs > 0) {
    const timed = create(false);
    const tensors = vectorToArray(timed.GetInputs());
    setInputs(tensors);
    const times = [];
    for (let r = 0; r < args.runs; ++r) {
      start = process.hrtime.bigint();
      if (!timed.Infer()) fail('TFLite failed to run the model a second time');
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (args.stateful) {
        vectorToArray(timed.GetOutputs()).forEach((t, i) => {
          const info = tensorInfo(t);
          writeNpy(path.join(outDir, `output_${i}_run${r + 1}.npy`), info.dtype, info.shape,
                   t.data().slice());
        });
      }
    }
    if (!args.stateful) vectorToArray(timed.GetOutputs()).forEach((t, i) => {
      if (!Buffer.from(t.data().buffer, t.data().byteOffset, t.data().byteLength)
               .equals(Buffer.from(outputs[i].buffer))) {
        fail(`output ${i} differs between two runs on the same inputs`);
      }
    });
    tensors.forEach((t) => t.delete());
    times.sort((a, b) => a - b);
    meta.runs = args.runs;
    meta.medianMs = +times[times.length >> 1].toFixed(3);
    meta.minMs = +times[0].toFixed(3);
  }

  meta.inputs.forEach((info, i) => writeNpy(path.join(outDir, `input_${i}.npy`), info.dtype,
                                            info.shape, feeds[i]));
  meta.outputs.forEach((info, i) => writeNpy(path.join(outDir, `output_${i}.npy`), info.dtype,
                                             info.shape, outputs[i]));
  meta.log = log;
  fs.writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
  console.log(JSON.stringify({ model: meta.model, xnnpack: meta.xnnpack,
                               firstRunMs: meta.firstRunMs, medianMs: meta.medianMs,
                               outputs: meta.outputs.length }));
}

main().catch((e) => {
  console.error(`tflite-reference.js: ${process.argv[2]}: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
