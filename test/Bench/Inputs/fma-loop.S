// 1000 times a body of 15 instructions: 5 Advanced SIMD FMLA/FMLS on vectors,
// 3 scalar fused multiply-adds, 5 look-alikes that are neither, and the loop's
// subs and b.ne; then exit(0). 1 + 15000 + 3 instructions in all.
.globl _start
_start:
  mov x0, #1000
1:
  fmla v0.4s, v1.4s, v2.4s
  fmls v3.2d, v1.2d, v2.2d
  fmla v4.8h, v5.8h, v6.8h
  fmla v7.4s, v1.4s, v2.s[1]
  fmls v8.8h, v5.8h, v6.h[7]
  fmadd s9, s10, s11, s12
  fnmsub d13, d14, d15, d16
  fmla s17, s18, v2.s[3]
  fmul v19.4s, v1.4s, v2.4s
  mla v20.4s, v21.4s, v22.4s
  fmlal v23.4s, v5.4h, v6.4h
  fcmla v24.4s, v1.4s, v2.4s, #90
  sdot v25.4s, v21.16b, v22.16b
  subs x0, x0, #1
  b.ne 1b
  mov x0, #0
  mov x8, #93 // exit
  svc #0
