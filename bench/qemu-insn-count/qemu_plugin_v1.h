/*===- qemu_plugin_v1.h - the part of QEMU's plugin API insn_count.c uses ===*
 *
 * QEMU's plugin interface is a C ABI: a plugin is a shared object that
 * exports `qemu_plugin_version` and `qemu_plugin_install`, and calls the
 * `qemu_plugin_*` functions the qemu binary exports. QEMU publishes it as
 * include/qemu/qemu-plugin.h in its source, which Debian 12 does not package
 * (no binary package ships it). These are declarations, written here, of
 * the few entry points insn_count.c calls, as they are in API version 1,
 * the version of qemu 7.2 (Debian 12's qemu-user); later QEMU releases
 * changed some of them (qemu_plugin_insn_data, for one), so this plugin is
 * for qemu 7.2. To build against QEMU's own header instead, compile with
 * -DINSN_COUNT_QEMU_PLUGIN_H and -I the folder that holds qemu-plugin.h.
 *===----------------------------------------------------------------------===*/
#ifndef INSN_COUNT_QEMU_PLUGIN_V1_H
#define INSN_COUNT_QEMU_PLUGIN_V1_H

#ifdef INSN_COUNT_QEMU_PLUGIN_H
#include <qemu-plugin.h>
#else
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* read by no code here: opaque */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
  QEMU_PLUGIN_CB_NO_REGS,
  QEMU_PLUGIN_CB_R_REGS,
  QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                          qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags,
                                          void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
/* The name of the function `insn` is in, or null. */
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);
#endif

#endif
