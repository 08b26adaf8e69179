#!/usr/bin/env python3
"""Numpy reference for MediaPipe's three TFLite custom ops used by
face_landmark_with_attention.tflite (the semantics MediaPipeKernels.cpp implements, written apart from it).

Follows mediapipe/util/tflite/operations/{landmarks_to_transform_matrix,
transform_tensor_bilinear,transform_landmarks}.cc (CPU kernels) literally,
including float32 evaluation order.  Slow (scalar loops) on purpose where the
order of float32 operations matters; fine for 16x16x32 crops.

  landmarks_to_transform_matrix_v2(landmarks[1,N,3], opts) -> [1,4,4]
  transform_tensor_bilinear_v2(data[1,H,W,C], matrix[1,4,4], out_shape) -> out_shape
  transform_landmarks_v2(landmarks[1,N,D], matrix[1,4,4]) -> [1,N,D]   (D in {2,3})
plus the v1 variants (not used by the model; see spec for caveats).

opts: dict as decoded from custom_options with flatbuffers.flexbuffers.Loads.
Run this file to execute the self-checks.
"""
import math

import numpy as np

f32 = np.float32


# ----------------------------------------------------------------- helpers
def _pairs(flat):
    """ParseLandmarksToTransformMatrixV{1,2}Attributes: a flat int vector is
    cut into pairs; an odd trailing element becomes the pair (last, last)."""
    flat = [int(v) for v in flat]
    out = [(flat[2 * i], flat[2 * i + 1]) for i in range(len(flat) // 2)]
    if len(flat) % 2:
        out.append((flat[-1], flat[-1]))
    return out


def _mat_mul(a, b, n):
    """Mat3/Mat4 operator*: row-major n x n, float32, sum=0 then k=0..n-1."""
    r = [f32(0)] * (n * n)
    for i in range(n):
        for j in range(n):
            s = f32(0)
            for k in range(n):
                s = f32(s + f32(a[i * n + k] * b[k * n + j]))
            r[i * n + j] = s
    return r


def _mat3_vec(m, v):
    out = []
    for i in range(3):
        s = f32(0)
        for k in range(3):
            s = f32(s + f32(m[i * 3 + k] * v[k]))
        out.append(s)
    return out


def _dot4(l, r):
    """DotProduct(float4, float4): l.x*r.x + l.y*r.y + l.z*r.z + l.w*r.w,
    left to right in float32 (no FMA)."""
    s = f32(l[0] * r[0])
    s = f32(s + f32(l[1] * r[1]))
    s = f32(s + f32(l[2] * r[2]))
    s = f32(s + f32(l[3] * r[3]))
    return s


# ------------------------------------------- Landmarks2TransformMatrix (v2)
def landmarks_to_transform_matrix_v2(landmarks, opts):
    lm = np.ascontiguousarray(landmarks, dtype=f32)
    if lm.ndim != 3:
        raise ValueError("Landmarks2TransformMatrix v2: input must be 3-D")
    data = lm.reshape(-1)  # kernel reads data[idx*3 + c] regardless of shape
    left = int(opts["left_rotation_idx"])
    right = int(opts["right_rotation_idx"])
    target = f32(opts["target_rotation_radians"])
    out_h = int(opts["output_height"])
    out_w = int(opts["output_width"])
    scale_x = f32(opts["scale_x"])
    scale_y = f32(opts["scale_y"])
    subset = _pairs(opts["subset_idxs"])
    # Eval() checks, in this order
    if left < 0:
        raise ValueError("Incorrect left_rotation_idx: %d" % left)
    if right < 0:
        raise ValueError("Incorrect right_rotation_idx: %d" % right)
    if out_h <= 0:
        raise ValueError("Incorrect output_height: %d" % out_h)
    if out_w <= 0:
        raise ValueError("Incorrect output_width: %d" % out_w)
    if scale_x <= 0:
        raise ValueError("Incorrect scale_x")
    if scale_y <= 0:
        raise ValueError("Incorrect scale_y")
    for c, p in enumerate(v for pr in subset for v in pr):
        if p < 0:
            raise ValueError("Incorrect subset value: index = %d, value = %d" % (c, p))
    if not subset:
        # the C++ kernel has no check and reads landmarks[0] of an empty vector (UB)
        raise ValueError("empty subset_idxs (undefined in MediaPipe)")

    def xyz(i):
        return [data[i * 3], data[i * 3 + 1], data[i * 3 + 2]]

    # EstimateRotationRadians
    l, r_ = xyz(left), xyz(right)
    rotation = f32(math.atan2(f32(r_[1] - l[1]), f32(r_[0] - l[0])))  # std::atan2(float,float)
    rotation = f32(target - rotation)

    # EstimateCenterAndSize
    pts = []
    for a, b in subset:
        pts.append(xyz(a))
        pts.append(xyz(b))
    for p in pts:
        p[2] = f32(1.0)
    r = rotation
    c, s = f32(np.cos(r)), f32(np.sin(r))
    cn, sn = f32(np.cos(f32(-r))), f32(np.sin(f32(-r)))
    t_rot = [c, f32(-s), f32(0), s, c, f32(0), f32(0), f32(0), f32(1)]
    t_rot_inv = [cn, f32(-sn), f32(0), sn, cn, f32(0), f32(0), f32(0), f32(1)]
    pts = [_mat3_vec(t_rot, p) for p in pts]
    mx = list(pts[0])
    mn = list(pts[0])
    for p in pts[1:]:
        if mx[0] < p[0]:
            mx[0] = p[0]
        if mx[1] < p[1]:
            mx[1] = p[1]
        if mn[0] > p[0]:
            mn[0] = p[0]
        if mn[1] > p[1]:
            mn[1] = p[1]
    crop_w = f32(mx[0] - mn[0])
    crop_h = f32(mx[1] - mn[1])
    cxy = list(mn)  # z component is 1 (rotation keeps z)
    cxy[0] = f32(f32(cxy[0] + mx[0]) / f32(2))
    cxy[1] = f32(f32(cxy[1] + mx[1]) / f32(2))
    cxy = _mat3_vec(t_rot_inv, cxy)
    crop_x, crop_y = cxy[0], cxy[1]

    # LandmarksToTransformMatrixV2: t = I * shift * rot(-rotation) * scale * shift2
    Z, O = f32(0), f32(1)
    t = [O, Z, Z, Z, Z, O, Z, Z, Z, Z, O, Z, Z, Z, Z, O]
    t_shift = [O, Z, Z, crop_x, Z, O, Z, crop_y, Z, Z, O, Z, Z, Z, Z, O]
    t = _mat_mul(t, t_shift, 4)
    rr = f32(-rotation)
    c2, s2 = f32(np.cos(rr)), f32(np.sin(rr))
    t_rotation = [c2, f32(-s2), Z, Z, s2, c2, Z, Z, Z, Z, O, Z, Z, Z, Z, O]
    t = _mat_mul(t, t_rotation, 4)
    sx = f32(f32(scale_x * crop_w) / f32(out_w))
    sy = f32(f32(scale_y * crop_h) / f32(out_h))
    t_scale = [sx, Z, Z, Z, Z, sy, Z, Z, Z, Z, O, Z, Z, Z, Z, O]
    t = _mat_mul(t, t_scale, 4)
    shx = f32(-1.0 * (out_w / 2.0))
    shy = f32(-1.0 * (out_h / 2.0))
    t_shift2 = [O, Z, Z, shx, Z, O, Z, shy, Z, Z, O, Z, Z, Z, Z, O]
    t = _mat_mul(t, t_shift2, 4)
    return np.array(t, dtype=f32).reshape(1, 4, 4)  # row-major memcpy


# ---------------------------------------------- TransformTensorBilinear (v2)
def _bilinear(data, xt, yt, out_h, out_w, out_c):
    _, in_h, in_w, _ = data.shape
    img = data[0]
    out = np.zeros((1, out_h, out_w, out_c), dtype=f32)
    for oy in range(out_h):
        for ox in range(out_w):
            coord = (f32(ox), f32(oy), f32(0), f32(1))
            tx = _dot4(xt, coord)
            ty = _dot4(yt, coord)
            if tx < 0.0 or tx > in_w - 1 or ty < 0.0 or ty > in_h - 1:
                continue  # result = 0 for every channel
            fx, fy = f32(math.floor(tx)), f32(math.floor(ty))
            ix, iy = int(fx), int(fy)

            def read(h, w):
                if h < 0 or w < 0 or h >= in_h or w >= in_w:
                    return np.zeros(out_c, dtype=f32)
                return img[h, w, :out_c]

            q11, q21 = read(iy, ix), read(iy, ix + 1)
            q12, q22 = read(iy + 1, ix), read(iy + 1, ix + 1)
            rc = f32(tx - fx)
            lc = f32(ty - fy)
            # (1.0 - rc) is double in C++; the float products rc*q are float.
            upper = ((1.0 - float(rc)) * q11.astype(np.float64)
                     + (rc * q21).astype(f32).astype(np.float64)).astype(f32)
            lower = ((1.0 - float(rc)) * q12.astype(np.float64)
                     + (rc * q22).astype(f32).astype(np.float64)).astype(f32)
            res = ((lc * lower).astype(f32).astype(np.float64)
                   + (1.0 - float(lc)) * upper.astype(np.float64)).astype(f32)
            out[0, oy, ox, :] = res
    return out


def transform_tensor_bilinear_v2(data, matrix, out_shape, opts=None):
    """out_shape: the model's declared output tensor shape [1, OH, OW, OC]
    (the CPU kernel does not resize its output; custom_options are parsed but
    unused on CPU).  Only batch 0 is read/written."""
    data = np.asarray(data, dtype=f32)
    if data.ndim != 4 or len(out_shape) != 4:
        raise ValueError("TransformTensorBilinear: input and output must be 4-D")
    m = np.asarray(matrix, dtype=f32).reshape(-1)
    xt = [m[0], m[1], m[2], m[3]]
    yt = [m[4], m[5], m[6], m[7]]
    # align-corners correction T -> S*(T*A), done in double, stored to float
    xt[3] = f32(float(xt[3]) + (float(xt[0]) * 0.5 + float(xt[1]) * 0.5 - 0.5))
    yt[3] = f32(float(yt[3]) + (float(yt[0]) * 0.5 + float(yt[1]) * 0.5 - 0.5))
    _, oh, ow, oc = [int(v) for v in out_shape]
    if oc > data.shape[3]:
        raise ValueError("output channels > input channels (C++ would read out of row)")
    return _bilinear(data, xt, yt, oh, ow, oc)


def transform_tensor_v1(data, matrix, opts):
    """custom name "TransformTensor" v1: options {"mode": "bilinear",
    "output_size": [h, w]}; no align-corners correction.  Output channels
    come from the output tensor; here = input channels."""
    if "mode" in opts and opts["mode"] != "bilinear":
        raise NotImplementedError("TransformTensor operation supports only bilinear interpolation.")
    data = np.asarray(data, dtype=f32)
    m = np.asarray(matrix, dtype=f32).reshape(-1)
    h, w = [int(v) for v in opts["output_size"]]
    return _bilinear(data, list(m[0:4]), list(m[4:8]), h, w, data.shape[3])


# --------------------------------------------------- TransformLandmarks (v2)
def transform_landmarks_v2(landmarks, matrix, opts=None):
    lm = np.asarray(landmarks, dtype=f32)
    if lm.ndim != 3:
        raise ValueError("TransformLandmarks v2: input must be 3-D")
    d0, n, dims = lm.shape  # output shape == input shape; dimensions = out dim 2
    if dims not in (2, 3):
        raise ValueError("Incorrect dimensions size: %d" % dims)
    m = np.asarray(matrix, dtype=f32).reshape(-1)
    xt = (m[0], m[1], m[2], m[3])
    yt = (m[4], m[5], m[6], m[7])
    flat = lm.reshape(-1)
    out = np.zeros_like(flat)  # C++ leaves elements beyond d1*d2 unwritten
    for i in range(n):
        o = i * dims
        lv = (flat[o], flat[o + 1], f32(0), f32(1))
        out[o] = _dot4(xt, lv)
        out[o + 1] = _dot4(yt, lv)
        if dims == 3:
            out[o + 2] = flat[o + 2]  # z passes through unchanged
    return out.reshape(lm.shape)


def transform_landmarks_v1(landmarks, matrix, opts):
    """v1: 4-D [1,H,W,C] landmarks, options {"dimensions": 2|3, "scale": f}
    (defaults dimensions=3, scale=1.0); scale multiplies m[3] and m[7]."""
    lm = np.asarray(landmarks, dtype=f32)
    dims = int(opts.get("dimensions", 3))
    scale = f32(opts.get("scale", 1.0))
    if dims not in (2, 3):
        raise ValueError("Incorrect dimensions size: %d" % dims)
    if scale == 0:
        raise ValueError("Incorrect scale value")
    if lm.ndim != 4 or lm.shape[3] % dims:
        raise ValueError("bad landmarks shape")
    m = np.asarray(matrix, dtype=f32).reshape(-1)
    xt = (m[0], m[1], m[2], f32(m[3] * scale))
    yt = (m[4], m[5], m[6], f32(m[7] * scale))
    out = lm.copy()
    _, h, w, c = lm.shape
    for y in range(h):
        for x in range(w):
            for k in range(c // dims):
                lv = (lm[0, y, x, k * dims], lm[0, y, x, k * dims + 1], f32(0), f32(1))
                out[0, y, x, k * dims] = _dot4(xt, lv)
                out[0, y, x, k * dims + 1] = _dot4(yt, lv)
    return out


def landmarks_to_transform_matrix_v1(landmarks, opts):
    """v1 (unused by the model).  Keys: dimensions (must be 3),
    landmarks_range, left_rotation_idx, right_rotation_idx,
    bbox_size_multiplier (float), input_hw [h,w], output_hw [h,w], subset.
    Computed in float64 here (the C++ mixes float and unqualified cos/sin)."""
    data = np.asarray(landmarks, dtype=f32).reshape(-1).astype(np.float64)
    if int(opts["dimensions"]) != 3:
        raise ValueError("Incorrect dimensions")
    rng = float(opts["landmarks_range"])
    in_h, in_w = [float(v) for v in opts["input_hw"]]
    out_h, out_w = [float(v) for v in opts["output_hw"]]
    mul = float(opts["bbox_size_multiplier"])
    li, ri = int(opts["left_rotation_idx"]), int(opts["right_rotation_idx"])
    lx, ly = data[li * 3], data[li * 3 + 1]
    rx, ry = data[ri * 3], data[ri * 3 + 1]
    alpha = -math.atan((ry - ly) / (rx - lx))
    mx = [-100000.0, -100000.0]
    mn = [100000.0, 100000.0]
    for pr in _pairs(opts["subset"]):
        for idx in pr:
            x, y = data[idx * 3], data[idx * 3 + 1]
            rxx = x * math.cos(alpha) - y * math.sin(alpha)
            ryy = x * math.sin(alpha) + y * math.cos(alpha)
            mx = [max(mx[0], rxx), max(mx[1], ryy)]
            mn = [min(mn[0], rxx), min(mn[1], ryy)]
    bw, bh = (mx[0] - mn[0]) * mul, (mx[1] - mn[1]) * mul
    scale = np.array([[bw / rng, 0, 0], [0, bh / rng, 0], [0, 0, 1]])
    mid = ((mx[0] + mn[0]) / 2, (mx[1] + mn[1]) / 2)
    a = -alpha
    rm = (mid[0] * math.cos(a) - mid[1] * math.sin(a), mid[0] * math.sin(a) + mid[1] * math.cos(a))
    rot = np.array([[math.cos(a), -math.sin(a), rm[0] / rng * 2 - 1],
                    [math.sin(a), math.cos(a), rm[1] / rng * 2 - 1], [0, 0, 1]])
    to_rel = np.array([[2 / (out_w - 1), 0, -1], [0, 2 / (out_h - 1), -1], [0, 0, 1]])
    to_abs = np.array([[(in_w - 1) / 2, 0, (in_w - 1) / 2], [0, (in_h - 1) / 2, (in_h - 1) / 2], [0, 0, 1]])
    itm = to_abs @ rot @ scale @ to_rel
    o = np.zeros(16)
    o[0], o[1], o[3] = itm[0, 0], itm[0, 1], itm[0, 2]
    o[4], o[5], o[7] = itm[1, 0], itm[1, 1], itm[1, 2]
    o[8], o[9], o[10] = itm[2, 0], itm[2, 1], itm[2, 2]
    o[15] = 1.0
    return o.astype(f32).reshape(1, 4, 4)


# ------------------------------------------------------------- self-checks
def _self_check():
    rng = np.random.default_rng(0)
    close = lambda a, b, tol=1e-5: np.allclose(a, b, atol=tol, rtol=0)

    # --- L2TM: axis-aligned square of 4 points, eyes horizontal -> rotation 0
    lm = np.zeros((1, 4, 3), f32)
    lm[0, :, :2] = [[10, 20], [30, 20], [10, 40], [30, 40]]  # x in [10,30], y in [20,40]
    opts = dict(left_rotation_idx=0, right_rotation_idx=1, target_rotation_radians=0.0,
                output_height=16, output_width=16, scale_x=1.0, scale_y=1.0,
                subset_idxs=[0, 1, 2, 3])
    M = landmarks_to_transform_matrix_v2(lm, opts)[0]
    # crop 20x20 centred (20,30); sx = 20/16; x_in = 20 + 1.25*(x - 8)
    exp = np.array([[1.25, 0, 0, 20 - 10], [0, 1.25, 0, 30 - 10], [0, 0, 1, 0], [0, 0, 0, 1]], f32)
    assert close(M, exp), M
    # scale 1.5 and odd subset (last index paired with itself)
    o2 = dict(opts, scale_x=1.5, scale_y=1.5, subset_idxs=[0, 1, 2, 3, 3])
    M2 = landmarks_to_transform_matrix_v2(lm, o2)[0]
    assert close(M2, [[1.875, 0, 0, 5], [0, 1.875, 0, 15], [0, 0, 1, 0], [0, 0, 0, 1]]), M2
    # rotated by 90 degrees: right point straight below left point -> atan2=+pi/2
    lm90 = np.zeros((1, 4, 3), f32)
    lm90[0, :, :2] = [[20, 10], [20, 30], [0, 10], [0, 30]]  # x in [0,20], y in [10,30]
    M3 = landmarks_to_transform_matrix_v2(lm90, opts)[0]
    # rotation = -pi/2; matrix rotates by +pi/2: [[0,-1],[1,0]]; crop 20x20 centre (10,20)
    exp3 = np.array([[0, -1.25, 0, 10 + 10], [1.25, 0, 0, 20 - 10], [0, 0, 1, 0], [0, 0, 0, 1]], f32)
    assert close(M3, exp3), M3
    # the crop's output-pixel corners map onto the bounding box corners
    c = M2 @ np.array([0, 0, 0, 1], f32)
    assert close(c[:2], [20 - 15, 30 - 15])

    # --- TransformTensorBilinear v2
    data = rng.standard_normal((1, 5, 7, 3)).astype(f32)
    ident = np.eye(4, dtype=f32).reshape(1, 4, 4)
    out = transform_tensor_bilinear_v2(data, ident, (1, 5, 7, 3))
    assert close(out, data), "identity"  # align-corners correction cancels for identity
    # integer translation by (+1, +2) -> out[y,x] = in[y+2, x+1], zeros when OOB
    T = ident.copy()
    T[0, 0, 3], T[0, 1, 3] = 1, 2
    out = transform_tensor_bilinear_v2(data, T, (1, 5, 7, 2))
    exp = np.zeros((1, 5, 7, 2), f32)
    exp[0, :3, :6] = data[0, 2:, 1:, :2]
    assert close(out, exp), "translate"
    # 2x down-scale: pixel-centre convention -> x_in = 2*x + 0.5
    S = ident.copy()
    S[0, 0, 0], S[0, 1, 1] = 2, 2
    out = transform_tensor_bilinear_v2(data, S, (1, 2, 3, 3))
    for y in range(2):
        for x in range(3):
            sx, sy = 2 * x + 0.5, 2 * y + 0.5
            x0, y0 = int(sx), int(sy)
            v = (0.25 * data[0, y0, x0] + 0.25 * data[0, y0, x0 + 1]
                 + 0.25 * data[0, y0 + 1, x0] + 0.25 * data[0, y0 + 1, x0 + 1])
            assert close(out[0, y, x], v), (y, x)
    # half-pixel shift: exactly at right edge (x == W-1) is in bounds, beyond is 0
    H = ident.copy()
    H[0, 0, 3] = 0.5
    out = transform_tensor_bilinear_v2(data, H, (1, 5, 7, 3))
    assert close(out[0, :, 0], 0.5 * data[0, :, 0] + 0.5 * data[0, :, 1])
    assert close(out[0, :, 6], 0), "x = 6.5 > W-1 -> zero"
    H[0, 0, 3] = -6.0
    out = transform_tensor_bilinear_v2(data, H, (1, 5, 7, 3))
    assert close(out[0, :, 6], data[0, :, 0]) and close(out[0, :, :6], 0)

    # --- TransformLandmarks v2
    lm2 = rng.standard_normal((1, 5, 2)).astype(f32)
    assert close(transform_landmarks_v2(lm2, ident), lm2)
    A = np.array([[[2, 1, 7, 3], [-1, 0.5, 9, -4], [5, 5, 5, 5], [6, 6, 6, 6]]], f32)
    got = transform_landmarks_v2(lm2, A)
    exp = np.stack([2 * lm2[..., 0] + lm2[..., 1] + 3, -lm2[..., 0] + 0.5 * lm2[..., 1] - 4], -1)
    assert close(got, exp)  # column 2 (z) and rows 2,3 are ignored
    lm3 = rng.standard_normal((1, 4, 3)).astype(f32)
    got3 = transform_landmarks_v2(lm3, A)
    assert close(got3[..., 2], lm3[..., 2]) and close(got3[..., 0], 2 * lm3[..., 0] + lm3[..., 1] + 3)

    # --- composition as in the model: matrix * [[1,1,4,4],[1,1,4,4],[.25,.25,1,1],[.25,.25,1,1]]
    K = np.array([[[1, 1, 4, 4], [1, 1, 4, 4], [.25, .25, 1, 1], [.25, .25, 1, 1]]], f32)
    Mk = (M2[None] * K).astype(f32)
    p = transform_landmarks_v2(np.array([[[0, 0], [16, 16]]], f32) * 4, Mk)  # crop corners in 64-space
    assert close(p[0] / 4, [[5, 15], [35, 45]]), p  # = bbox corners (in 48-space) back in 192/4

    # --- v1 sanity
    assert close(transform_landmarks_v1(lm2.reshape(1, 1, 1, 10), A, {"dimensions": 2, "scale": 1.0}).reshape(1, 5, 2), exp)
    assert close(transform_tensor_v1(data, ident, {"mode": "bilinear", "output_size": [5, 7]}), data)
    print("mediapipe_ops_ref self-check: OK")


if __name__ == "__main__":
    _self_check()
