/* orion/cubin.h - read, inspect, edit and write CUDA cubins (sass/).
 *
 * A cubin is an ELF64 little-endian file with e_machine 190 (EM_CUDA).
 * orion_cubin_parse() reads one through libelf, checks every header, section,
 * symbol, relocation and .nv.info record against the file's bounds, and keeps
 * a private copy of every section's bytes; nothing points into the caller's
 * buffer afterwards.  orion_cubin_write() serialises it again: while no
 * section changed size the output keeps the original layout byte for byte
 * (headers, padding and all); after a size change the sections that follow
 * are moved up or down (each keeping its alignment) and the section-header
 * table, the program headers and e_shoff/e_phoff follow them.
 *
 * Facts the code relies on, checked on cubins from ptxas 13.0 (sm_80, sm_90):
 *  - EI_OSABI 0x41, EI_ABIVERSION 8, the SM number in e_flags bits 8-15
 *    (0x6005a04 for sm_90).  The older ABI (EI_ABIVERSION 7) kept it in the
 *    low byte; that rule is applied but was not seen here.
 *  - .text.<f> has sh_info = the function's symbol index; bits 24-31 hold
 *    the register count on sm_80 and are 0 on sm_90.  The register count,
 *    frame size and stack sizes are EIATTR records of .nv.info keyed by
 *    symbol index; per-kernel records sit in .nv.info.<k> (sh_info = the
 *    kernel's text section).  Kernel symbols are STT_FUNC with st_other
 *    bit 0x10 (cuobjdump: ENTRY).  Static shared memory is the size of the
 *    NOBITS section .nv.shared.<k> (sh_info = the kernel's text section;
 *    type CUDA_SHARED 0x7000000a in -rdc cubins).
 *  - EIATTR record: format byte (1 NVAL, 2 BVAL, 3 HVAL, 4 SVAL), attribute
 *    byte, u16 (the value, or for SVAL the payload size), SVAL payload.
 *
 * Ownership: an orion_cubin owns all its memory; orion_cubin_free() releases
 * it.  Strings and byte pointers returned by accessors point into the cubin
 * and stay valid until the next call that modifies the cubin (any
 * orion_cubin_set_* / _replace_* / _nvinfo_* edit) or orion_cubin_free().
 * Functions are not thread-safe on one cubin; distinct cubins are
 * independent.  Every fallible function returns an orion_status;
 * on error, out-parameters are left untouched and, where an
 * orion_cubin_diag is passed, it holds a one-line message.
 */
#ifndef ORION_CUBIN_H
#define ORION_CUBIN_H

#include <stddef.h>
#include <stdint.h>

#include "orion/status.h"

#ifdef __cplusplus
extern "C" {
#endif


/* The detail of a failure ("section 7 (.nv.info): record at 0x10 runs past
 * the end"); empty on success. */
typedef struct orion_cubin_diag {
  char msg[256];
} orion_cubin_diag;

typedef struct orion_cubin orion_cubin;

/* Parse a cubin from memory (the bytes are copied).  *out receives a new
 * cubin that the caller frees with orion_cubin_free().  diag may be NULL. */
orion_status orion_cubin_parse(const void *bytes, size_t size, orion_cubin **out,
                                     orion_cubin_diag *diag);
/* Read and parse a file. */
orion_status orion_cubin_read_file(const char *path, orion_cubin **out,
                                         orion_cubin_diag *diag);
void orion_cubin_free(orion_cubin *c); /* NULL is fine */

/* Serialise: *out is a malloc'd buffer the caller frees, *size its length. */
orion_status orion_cubin_write(const orion_cubin *c, unsigned char **out, size_t *size);
/* Serialise to path atomically: a temporary file in the same directory,
 * renamed over path only once complete; on failure nothing is left. */
orion_status orion_cubin_write_file(const orion_cubin *c, const char *path,
                                          orion_cubin_diag *diag);

/* ---- file-level facts ---- */
typedef struct orion_cubin_header {
  unsigned sm;            /* 90 for sm_90 */
  unsigned abi_version;   /* EI_ABIVERSION */
  unsigned osabi;         /* EI_OSABI */
  unsigned type;          /* ET_EXEC (2) or ET_REL (1, -rdc) */
  uint32_t flags;         /* e_flags */
} orion_cubin_header;
void orion_cubin_get_header(const orion_cubin *c, orion_cubin_header *out);

/* ---- sections (index 0 is the null section) ---- */
typedef struct orion_cubin_section {
  const char *name;
  uint32_t type, link, info;
  uint64_t flags, addr, offset, size, addralign, entsize;
  const unsigned char *data; /* size bytes; NULL for NOBITS or empty */
} orion_cubin_section;
size_t orion_cubin_section_count(const orion_cubin *c);
orion_status orion_cubin_get_section(const orion_cubin *c, size_t idx,
                                           orion_cubin_section *out);
/* Index of the section called name, or 0 when there is none. */
size_t orion_cubin_find_section(const orion_cubin *c, const char *name);
/* Replace a section's bytes; the size may change (later sections move on
 * write) and sh_size follows.  Not for NOBITS sections and not for the
 * tables other data points into (SYMTAB, STRTAB, REL, RELA: use the
 * per-entry setters); a .nv.info section must hold well-formed records. */
orion_status orion_cubin_replace_section_data(orion_cubin *c, size_t idx,
                                                   const void *data, size_t size);
/* Set sh_size of a NOBITS section (e.g. .nv.shared.<k>). */
orion_status orion_cubin_set_nobits_size(orion_cubin *c, size_t idx, uint64_t size);
orion_status orion_cubin_set_section_info(orion_cubin *c, size_t idx, uint32_t info);
/* The input's first allocated NOBITS section, which a section added by
 * orion_cubin_add_nobits_section joins; 0 when there is none (the add then
 * fails with NOT_FOUND). */
size_t orion_cubin_nobits_home(const orion_cubin *c);
/* Add a NOBITS section (sass/elf/cubin_add.c has what ptxas writes for one):
 * header (appended: *idx is the old section count, nothing is renumbered),
 * name in .shstrtab, a local STT_SECTION symbol appended to .symtab; it is
 * placed with the input's first allocated NOBITS section (sm_90:
 * .nv.shared.reserved.0), so the writable segment grows by size.  For a
 * kernel's shared memory: name ".nv.shared.<k>", flags SHF_WRITE|SHF_ALLOC|
 * SHF_INFO_LINK (0x43), info the kernel's text section.  Errors:
 * INVALID_ARG (a section of that name exists, align not a power of 2),
 * RANGE (info out of range, no symbol table), NOT_FOUND (no allocated
 * NOBITS section to place it with), NOMEM (the cubin is unchanged). */
orion_status orion_cubin_add_nobits_section(orion_cubin *c, const char *name, uint64_t flags,
                                                  uint32_t info, uint64_t align, uint64_t size,
                                                  size_t *idx);

/* ---- symbols (of the one SHT_SYMTAB; index 0 is the null symbol) ---- */
#define ORION_CUBIN_STO_ENTRY 0x10 /* st_other bit of kernel entries */
typedef struct orion_cubin_symbol {
  const char *name;
  uint64_t value, size;
  unsigned type, bind; /* ELF64_ST_TYPE / ELF64_ST_BIND */
  unsigned other;
  uint32_t shndx;
} orion_cubin_symbol;
size_t orion_cubin_symbol_count(const orion_cubin *c);
orion_status orion_cubin_get_symbol(const orion_cubin *c, size_t idx,
                                          orion_cubin_symbol *out);
/* Index of the symbol called name, or 0 when there is none. */
size_t orion_cubin_find_symbol(const orion_cubin *c, const char *name);
orion_status orion_cubin_set_symbol_value(orion_cubin *c, size_t idx, uint64_t value);
orion_status orion_cubin_set_symbol_size(orion_cubin *c, size_t idx, uint64_t size);
/* Rename function old to new_name, a name of the same length, in the
 * symbol table and in its sections' names (.text.<old> ...), in place.
 * Requires: new_name is no symbol's and no section's name tail.  Errors:
 * NOT_FOUND (no function old), INVALID_ARG (lengths differ, new_name
 * taken), NOMEM. */
orion_status orion_cubin_rename_function(orion_cubin *c, const char *old, const char *new_name);

/* ---- relocations (sections of type SHT_REL / SHT_RELA) ---- */
typedef struct orion_cubin_reloc {
  uint64_t offset; /* in the target section (sh_info of the reloc section) */
  uint32_t sym, type;
  int64_t addend; /* 0 for SHT_REL */
} orion_cubin_reloc;
/* Number of entries of section sec (0 for non-relocation sections). */
size_t orion_cubin_reloc_count(const orion_cubin *c, size_t sec);
orion_status orion_cubin_get_reloc(const orion_cubin *c, size_t sec, size_t i,
                                         orion_cubin_reloc *out);
orion_status orion_cubin_set_reloc_offset(orion_cubin *c, size_t sec, size_t i,
                                                uint64_t offset);

/* ---- .nv.info / .nv.info.<k> EIATTR records ---- */
enum { ORION_EIFMT_NVAL = 1, ORION_EIFMT_BVAL = 2, ORION_EIFMT_HVAL = 3, ORION_EIFMT_SVAL = 4 };

/* X(NAME, code): the attribute codes as cuobjdump 13.0 names them (each
 * checked by test/unit/sass/test_cubin's cuobjdump probe).  Records with
 * other codes are kept verbatim. */
#define ORION_EIATTR_LIST(X)                                                            \
  X(ERROR, 0x00) X(PAD, 0x01) X(IMAGE_SLOT, 0x02) X(JUMPTABLE_RELOCS, 0x03)             \
  X(CTAIDZ_USED, 0x04) X(MAX_THREADS, 0x05) X(IMAGE_OFFSET, 0x06) X(IMAGE_SIZE, 0x07)   \
  X(TEXTURE_NORMALIZED, 0x08) X(SAMPLER_INIT, 0x09) X(PARAM_CBANK, 0x0a)                \
  X(SMEM_PARAM_OFFSETS, 0x0b) X(CBANK_PARAM_OFFSETS, 0x0c) X(SYNC_STACK, 0x0d)          \
  X(TEXID_SAMPID_MAP, 0x0e) X(EXTERNS, 0x0f) X(REQNTID, 0x10) X(FRAME_SIZE, 0x11)       \
  X(MIN_STACK_SIZE, 0x12) X(SAMPLER_FORCE_UNNORMALIZED, 0x13)                           \
  X(BINDLESS_IMAGE_OFFSETS, 0x14) X(BINDLESS_TEXTURE_BANK, 0x15)                        \
  X(BINDLESS_SURFACE_BANK, 0x16) X(KPARAM_INFO, 0x17) X(SMEM_PARAM_SIZE, 0x18)          \
  X(CBANK_PARAM_SIZE, 0x19) X(QUERY_NUMATTRIB, 0x1a) X(MAXREG_COUNT, 0x1b)              \
  X(EXIT_INSTR_OFFSETS, 0x1c) X(S2RCTAID_INSTR_OFFSETS, 0x1d) X(CRS_STACK_SIZE, 0x1e)   \
  X(NEED_CNP_WRAPPER, 0x1f) X(NEED_CNP_PATCH, 0x20) X(EXPLICIT_CACHING, 0x21)           \
  X(ISTYPEP_USED, 0x22) X(MAX_STACK_SIZE, 0x23) X(SUQ_USED, 0x24)                       \
  X(LD_CACHEMOD_INSTR_OFFSETS, 0x25) X(LOAD_CACHE_REQUEST, 0x26)                        \
  X(ATOM_SYS_INSTR_OFFSETS, 0x27) X(COOP_GROUP_INSTR_OFFSETS, 0x28)                     \
  X(COOP_GROUP_MASK_REGIDS, 0x29) X(WMMA_USED, 0x2b) X(HAS_PRE_V10_OBJECT, 0x2c)        \
  X(ATOMF16_EMUL_INSTR_OFFSETS, 0x2d) X(ATOM16_EMUL_INSTR_REG_MAP, 0x2e)                \
  X(REGCOUNT, 0x2f) X(INT_WARP_WIDE_INSTR_OFFSETS, 0x31) X(SHARED_SCRATCH, 0x32)        \
  X(STATISTICS, 0x33) X(INDIRECT_BRANCH_TARGETS, 0x34) X(SW_WAR, 0x36)                  \
  X(CUDA_API_VERSION, 0x37) X(NUM_MBARRIERS, 0x38) X(MBARRIER_INSTR_OFFSETS, 0x39)      \
  X(COROUTINE_RESUME_ID_OFFSETS, 0x3a) X(SAM_REGION_STACK_SIZE, 0x3b)                   \
  X(PER_REG_TARGET_PERF_STATS, 0x3c) X(CTA_PER_CLUSTER, 0x3d) X(EXPLICIT_CLUSTER, 0x3e) \
  X(MAX_CLUSTER_RANK, 0x3f) X(INSTR_REG_MAP, 0x40) X(RESERVED_SMEM_USED, 0x41)          \
  X(RESERVED_SMEM_0_SIZE, 0x42) X(UCODE_SECTION_DATA, 0x43)                             \
  X(UNUSED_LOAD_BYTE_OFFSET, 0x44) X(KPARAM_INFO_V2, 0x45) X(SYSCALL_OFFSETS, 0x46)     \
  X(GRAPHICS_GLOBAL_CBANK, 0x48) X(SHADER_TYPE, 0x49) X(VRC_CTA_INIT_COUNT, 0x4a)       \
  X(TOOLS_PATCH_FUNC, 0x4b) X(NUM_BARRIERS, 0x4c) X(TEXMODE_INDEPENDENT, 0x4d)          \
  X(PERF_STATISTICS, 0x4e) X(AT_ENTRY_FRAGMENTS, 0x4f) X(SPARSE_MMA_MASK, 0x50)         \
  X(TCGEN05_1CTA_USED, 0x51) X(TCGEN05_2CTA_USED, 0x52) X(GEN_ERRBAR_AT_EXIT, 0x53)     \
  X(REG_RECONFIG, 0x54) X(ANNOTATIONS, 0x55) X(STACK_CANARY_TRAP_OFFSETS, 0x57)         \
  X(STUB_FUNCTION_KIND, 0x58) X(LOCAL_CTA_ASYNC_STORE_OFFSETS, 0x59)                    \
  X(BLOCKS_ARE_CLUSTERS, 0x5b) X(SANITIZE, 0x5c) X(SYSCALLS_FALLBACK, 0x5d)             \
  X(CUDA_REQ, 0x5e) X(RTCORE_ENTRY, 0x61) X(CLUSTER_LAUNCH_CONTROL_USED, 0x62)          \
  X(MIN_PER_CTA_MEMORY_SIZE, 0x64) X(IGNOREOOB_CP_ASYNC_BULK_INSTR_OFFSETS, 0x65)       \
  X(LANGUAGE, 0x66) X(GRID_ATTRIBUTES, 0x68) X(STACK_OFFSET, 0x69)                      \
  X(RT_LIVESTATE_SASS_MAP, 0x6a) X(NVSAL_SW_WAR, 0x6b) X(INSTR_OFFSETS, 0x6c)           \
  X(PREEXIT_USED, 0x6d)

enum orion_eiattr {
#define ORION_EIATTR_X_ENUM(name, code) ORION_EIATTR_##name = code,
  ORION_EIATTR_LIST(ORION_EIATTR_X_ENUM)
#undef ORION_EIATTR_X_ENUM
};

/* "EIATTR_REGCOUNT" for a known code, NULL otherwise. */
const char *orion_eiattr_name(unsigned attr);
/* "EIFMT_SVAL" etc., NULL for an unknown format. */
const char *orion_eifmt_name(unsigned fmt);

typedef struct orion_eiattr_rec {
  unsigned fmt, attr;
  uint16_t value;                /* the u16 field: value, or SVAL payload size */
  const unsigned char *payload;  /* SVAL payload (value bytes), else NULL */
  size_t offset;                 /* of the record within its section */
} orion_eiattr_rec;

/* Is section idx a .nv.info section (SHT_LOPROC + 0, name .nv.info*)? */
int orion_cubin_is_nvinfo(const orion_cubin *c, size_t idx);
size_t orion_cubin_nvinfo_count(const orion_cubin *c, size_t sec);
orion_status orion_cubin_nvinfo_get(const orion_cubin *c, size_t sec, size_t i,
                                          orion_eiattr_rec *out);
/* Set the u16 value of a non-SVAL record. */
orion_status orion_cubin_nvinfo_set_value(orion_cubin *c, size_t sec, size_t i,
                                                uint16_t value);
/* Replace the payload of an SVAL record (size may change, up to 65535). */
orion_status orion_cubin_nvinfo_set_payload(orion_cubin *c, size_t sec, size_t i,
                                                  const void *payload, size_t size);
/* Append a record at the end of section sec. */
orion_status orion_cubin_nvinfo_append(orion_cubin *c, size_t sec, unsigned fmt,
                                             unsigned attr, uint16_t value,
                                             const void *payload, size_t size);
orion_status orion_cubin_nvinfo_remove(orion_cubin *c, size_t sec, size_t i);

/* ---- functions and kernels ----
 * A function is an STT_FUNC symbol with a non-zero size inside an
 * executable section; the list is fixed when the cubin is parsed.  Per-symbol
 * attributes (.nv.info, SVAL {u32 symbol, u32 value}) are -1 when absent. */
typedef struct orion_cubin_func {
  size_t sym;             /* symbol index */
  const char *name;
  int is_kernel;          /* st_other & ORION_CUBIN_STO_ENTRY */
  size_t text;            /* section index of its code */
  uint64_t value, size;   /* offset and size within that section */
  int64_t regcount, frame_size, min_stack_size, max_stack_size;
  unsigned regs_shinfo;   /* bits 24-31 of the text section's sh_info */
  /* kernels only (0 / -1 otherwise): */
  size_t nvinfo;          /* .nv.info.<k> section index, 0 if none */
  size_t shared;          /* .nv.shared.<k> section index, 0 if none */
  uint64_t shared_size;   /* its sh_size: static shared memory in bytes */
  int64_t maxreg_count;   /* EIATTR_MAXREG_COUNT */
  int64_t max_threads[3]; /* EIATTR_MAX_THREADS */
  int64_t reqntid[3];     /* EIATTR_REQNTID */
  int64_t crs_stack_size;
  size_t n_exit, n_s2rctaid; /* EIATTR_EXIT_/S2RCTAID_INSTR_OFFSETS entries */
} orion_cubin_func;

size_t orion_cubin_func_count(const orion_cubin *c);
orion_status orion_cubin_get_func(const orion_cubin *c, size_t i, orion_cubin_func *out);
/* The u32 offsets of an offset-list attribute (EXIT_INSTR_OFFSETS,
 * S2RCTAID_INSTR_OFFSETS...) of a kernel's .nv.info.<k>: up to cap of them
 * are stored in offs; *n receives how many there are. */
orion_status orion_cubin_kernel_offsets(const orion_cubin *c, size_t func, unsigned attr,
                                              uint32_t *offs, size_t cap, size_t *n);
orion_status orion_cubin_set_kernel_offsets(orion_cubin *c, size_t func, unsigned attr,
                                                  const uint32_t *offs, size_t n);
/* A function's code: the size bytes at value in its text section
 * (ORION_ERR_RANGE if edits made the symbol overrun the section). */
orion_status orion_cubin_func_text(const orion_cubin *c, size_t func,
                                         const unsigned char **bytes, size_t *size);
/* As orion_cubin_func_text, but only the function's own code: up to where
 * another function's code starts in its section (ptxas gives a kernel a
 * symbol spanning the functions it calls, placed after its own code). */
orion_status orion_cubin_func_own_text(const orion_cubin *c, size_t func, const unsigned char **bytes,
                                       size_t *size);
/* Replace the whole text section of a function with size bytes and set the
 * symbol size of every function that is alone in that section.  Callers
 * moving code also fix relocations, branch targets and offset lists. */
orion_status orion_cubin_replace_func_text(orion_cubin *c, size_t func,
                                                 const void *bytes, size_t size);
/* Set a per-symbol .nv.info value (REGCOUNT, FRAME_SIZE, MIN_/MAX_STACK_SIZE)
 * of function func; the record is appended when absent.  Setting REGCOUNT
 * also updates sh_info bits 24-31 where they were non-zero. */
orion_status orion_cubin_set_func_attr(orion_cubin *c, size_t func, unsigned attr,
                                             uint32_t value);

#ifdef __cplusplus
}
#endif
#endif /* ORION_CUBIN_H */
