#!/usr/bin/env python3
"""Writes the image and audio files of test/Runtime/codecs.mlir with the
standard library only (zlib, struct, wave), independently of the codec
libraries the kernels use. What each file holds is in the comments below
and in codecs.mlir.

Usage: make_codec_inputs.py  (writes into this folder)"""
import os
import struct
import wave
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data)))


def png_rgb(width, height, pixels):
    """An 8-bit RGB PNG, every row with filter 0 (None)."""
    rows = b"".join(b"\0" + bytes(pixels[y * width * 3:(y + 1) * width * 3])
                    for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
            png_chunk(b"IDAT", zlib.compress(rows, 9)) +
            png_chunk(b"IEND", b""))


def gif_lzw(indices, m):
    """LZW data with literal codes only: a clear code every 2^m - 2
    literals keeps the code width at m + 1 bits."""
    clear, eoi, width = 1 << m, (1 << m) + 1, m + 1
    codes = []
    for i, v in enumerate(indices):
        if i % ((1 << m) - 2) == 0:
            codes.append(clear)
        codes.append(v)
    codes.append(eoi)
    acc = bits = 0
    packed = bytearray()
    for c in codes:
        acc |= c << bits
        bits += width
        while bits >= 8:
            packed.append(acc & 0xff)
            acc >>= 8
            bits -= 8
    if bits:
        packed.append(acc & 0xff)
    out = bytes([m])
    for at in range(0, len(packed), 255):
        block = packed[at:at + 255]
        out += bytes([len(block)]) + bytes(block)
    return out + b"\0"


def gif(width, height, palette, frames):
    """A GIF89a with a 4-color global table; frames are (left, top, w, h,
    indices)."""
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x81, 0, 0)
    out += b"".join(bytes(c) for c in palette)
    for left, top, w, h, indices in frames:
        out += b"\x2c" + struct.pack("<HHHHB", left, top, w, h, 0)
        out += gif_lzw(indices, 2)
    return out + b"\x3b"


def bmp24(width, rows_bottom_up):
    """A bottom-up 24-bit BMP; rows of (B, G, R) bytes, padded to 4."""
    row_bytes = width * 3
    padded = (row_bytes + 3) // 4 * 4
    pixels = b"".join(bytes(r) + b"\0" * (padded - row_bytes)
                      for r in rows_bottom_up)
    header = b"BM" + struct.pack("<IHHI", 54 + len(pixels), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, width, len(rows_bottom_up), 1, 24,
                       0, len(pixels), 2835, 2835, 0, 0)
    return header + info + pixels


def jpeg_gray_blocks(width, height, values):
    """A baseline grayscale JPEG whose 8x8 blocks (row-major) are constant:
    DC coefficients 8 (v - 128) only, quantizer 1, the standard DC table
    (JPEG K.3) and an AC table whose one code "0" is EOB."""
    dc_bits = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    out = b"\xff\xd8"
    out += b"\xff\xdb" + struct.pack(">H", 67) + b"\0" + b"\x01" * 64
    out += b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1)
    out += b"\x01\x11\x00"
    out += (b"\xff\xc4" + struct.pack(">H", 31) + b"\x00" + bytes(dc_bits) +
            bytes(range(12)))
    out += (b"\xff\xc4" + struct.pack(">H", 20) + b"\x10" + b"\x01" +
            b"\0" * 15 + b"\0")
    out += b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00\x00\x3f\x00"
    codes, code, symbol = {}, 0, 0
    for length, count in enumerate(dc_bits, 1):
        for _ in range(count):
            codes[symbol] = (code, length)
            code += 1
            symbol += 1
        code <<= 1
    bits = []
    predictor = 0
    for v in values:
        dc = 8 * (v - 128)
        diff, predictor = dc - predictor, dc
        s = abs(diff).bit_length()
        c, n = codes[s]
        bits += [(c >> i) & 1 for i in range(n - 1, -1, -1)]
        if s:
            extra = diff if diff > 0 else diff + (1 << s) - 1
            bits += [(extra >> i) & 1 for i in range(s - 1, -1, -1)]
        bits.append(0)  # EOB.
    bits += [1] * (-len(bits) % 8)
    scan = bytearray()
    for i in range(0, len(bits), 8):
        byte = int("".join(map(str, bits[i:i + 8])), 2)
        scan.append(byte)
        if byte == 0xff:
            scan.append(0)
    return out + bytes(scan) + b"\xff\xd9"


# 3 x 2 RGB: (255,0,0) (0,255,0) (0,0,255) / (10,20,30) (40,50,60) (70,80,90).
write("codec_rgb.png", png_rgb(3, 2, [255, 0, 0, 0, 255, 0, 0, 0, 255,
                                      10, 20, 30, 40, 50, 60, 70, 80, 90]))
# 2 x 2, palette black, red, green, blue; frame 0 = red green / blue black,
# frame 1 paints the top row blue.
write("codec_anim.gif", gif(2, 2, [(0, 0, 0), (255, 0, 0), (0, 255, 0),
                                   (0, 0, 255)],
                            [(0, 0, 2, 2, [1, 2, 3, 0]),
                             (0, 0, 2, 1, [3, 3])]))
# 2 x 2 BGR, bottom row first: (1,2,3) (4,5,6), then (7,8,9) (10,11,12).
write("codec_bgr.bmp", bmp24(2, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]))
# 16 x 8 gray: the left block 50, the right one 200.
write("codec_gray.jpg", jpeg_gray_blocks(16, 8, [50, 200]))
# Stereo 16-bit PCM at 8000 Hz: (16384, -16384), (32767, -32768), (0, 1).
with wave.open(os.path.join(HERE, "codec_stereo.wav"), "wb") as w:
    w.setnchannels(2)
    w.setsampwidth(2)
    w.setframerate(8000)
    w.writeframes(struct.pack("<6h", 16384, -16384, 32767, -32768, 0, 1))
