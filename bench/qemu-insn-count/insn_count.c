/*===- insn_count.c - a QEMU TCG plugin: executed guest instructions -----===*
 *
 * qemu-aarch64 -plugin ./insn_count.so[,outfile=FILE][,symbols=FILE] PROGRAM
 *   ARGS...
 *
 * Counts the guest instructions qemu executes and, among them, the AArch64
 * floating-point multiply-adds: `simd_fma` the Advanced SIMD FMLA/FMLS on
 * vectors (by vector or by element; half, single, double), `scalar_fma`
 * FMADD/FMSUB/FNMADD/FNMSUB and FMLA/FMLS on one element. At
 * exit writes one JSON line to FILE, or to stderr:
 *   {"insns": N, "simd_fma": N, "scalar_fma": N}
 * Each translation block's counts are found when it is translated; a
 * callback adds them every time the block is entered, atomically, so the
 * threads of a multi-threaded guest (one vCPU each) all count. The counts
 * are deterministic: the same program and input give the same numbers.
 * With symbols=FILE it also writes the instructions by function (the symbol
 * of each block's first instruction, as qemu finds it in the program's
 * symbol table; "?" in libraries), most first, one "COUNT NAME" per line:
 * the profile that says which kernel to work on.
 * Built by scripts/bench-arm64.sh; QEMU's plugin API version 1 (qemu 7.2).
 *===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_v1.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

static uint64_t insns, simd_fma, scalar_fma;
static char outfile[4096], symfile[4096];

/* symbols=FILE: instructions per symbol, in an open-addressed table keyed
 * by the symbol's name pointer (qemu keeps the names for the run). */
#define NSYMS 65536
static struct sym {
  const char *name;
  uint64_t count;
} syms[NSYMS];
/* What a block's callback adds when symbols are counted. */
struct block {
  uint64_t n;
  uint64_t *count;
};

static uint64_t *symbolCount(const char *name) {
  size_t h = ((uintptr_t)name >> 3) % NSYMS;
  for (size_t probe = 0; probe < NSYMS; ++probe, h = (h + 1) % NSYMS) {
    if (syms[h].name == name)
      return &syms[h].count;
    if (!syms[h].name) {
      syms[h].name = name;
      return &syms[h].count;
    }
  }
  return &syms[0].count; /* full: lump the rest into one entry */
}

static void on_exec_symbol(unsigned int vcpu, void *userdata) {
  const struct block *b = userdata;
  (void)vcpu;
  __atomic_fetch_add(b->count, b->n, __ATOMIC_RELAXED);
}

/* A block's three counts, 21 bits each, travel as the callback's userdata. */
#define FIELD(v, i) (((v) >> (21 * (i))) & 0x1fffff)

static void on_exec(unsigned int vcpu, void *userdata) {
  uint64_t v = (uint64_t)(uintptr_t)userdata;
  (void)vcpu;
  __atomic_fetch_add(&insns, FIELD(v, 0), __ATOMIC_RELAXED);
  if (v >> 21) {
    __atomic_fetch_add(&simd_fma, FIELD(v, 1), __ATOMIC_RELAXED);
    __atomic_fetch_add(&scalar_fma, FIELD(v, 2), __ATOMIC_RELAXED);
  }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  uint64_t n = qemu_plugin_tb_n_insns(tb), vec = 0, sca = 0;
  (void)id;
  for (size_t i = 0; i < n; ++i) {
    const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint32_t op;
    if (qemu_plugin_insn_size(insn) != 4)
      continue;
    memcpy(&op, qemu_plugin_insn_data(insn), 4);
    if ((op & 0xbf20fc00) == 0x0e20cc00 || /* FMLA/FMLS vector, S/D */
        (op & 0xbf60fc00) == 0x0e400c00 || /* FMLA/FMLS vector, H */
        (op & 0xbf00b400) == 0x0f001000)   /* FMLA/FMLS by element */
      ++vec;
    else if ((op & 0xff000000) == 0x1f000000 || /* FMADD/FMSUB/FNM... */
             (op & 0xff00b400) == 0x5f001000)   /* FMLA/FMLS scalar, element */
      ++sca;
  }
  qemu_plugin_register_vcpu_tb_exec_cb(
      tb, on_exec, QEMU_PLUGIN_CB_NO_REGS,
      (void *)(uintptr_t)(n | vec << 21 | sca << 42));
  if (symfile[0] && n) {
    const char *name = qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, 0));
    struct block *b = malloc(sizeof *b);
    if (!b)
      return;
    b->n = n;
    b->count = symbolCount(name ? name : "?");
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec_symbol,
                                         QEMU_PLUGIN_CB_NO_REGS, b);
  }
}

static int byCount(const void *a, const void *b) {
  uint64_t x = ((const struct sym *)a)->count;
  uint64_t y = ((const struct sym *)b)->count;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void writeSymbols(void) {
  FILE *f = fopen(symfile, "w");
  if (!f)
    return;
  qsort(syms, NSYMS, sizeof syms[0], byCount);
  for (size_t i = 0; i < NSYMS && syms[i].count; ++i)
    fprintf(f, "%llu %s\n", (unsigned long long)syms[i].count, syms[i].name);
  fclose(f);
}

static void at_exit(qemu_plugin_id_t id, void *userdata) {
  char line[160];
  FILE *f;
  (void)id, (void)userdata;
  snprintf(line, sizeof line,
           "{\"insns\": %llu, \"simd_fma\": %llu, \"scalar_fma\": %llu}\n",
           (unsigned long long)insns, (unsigned long long)simd_fma,
           (unsigned long long)scalar_fma);
  if (!outfile[0] || !(f = fopen(outfile, "w")))
    f = stderr;
  fputs(line, f);
  if (f != stderr)
    fclose(f);
  if (symfile[0])
    writeSymbols();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  (void)info;
  for (int i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "outfile=", 8) == 0 &&
        strlen(argv[i] + 8) < sizeof outfile) {
      strcpy(outfile, argv[i] + 8);
    } else if (strncmp(argv[i], "symbols=", 8) == 0 &&
               strlen(argv[i] + 8) < sizeof symfile) {
      strcpy(symfile, argv[i] + 8);
    } else {
      fprintf(stderr, "insn_count: unknown argument %s\n", argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
