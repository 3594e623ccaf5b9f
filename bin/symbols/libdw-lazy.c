/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdw-lazy.c: the libdw functions -k and source lines call, loaded at the first (lazylib.c). */
#include "config.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "lazylib.h"

static struct lazylib libdw = { LIBDW_SONAME, "-k (stacks) and source lines",
				"libdw1", NULL };

LAZYLIB_FN(libdw, int, dwarf_cfi_addrframe,
	   (Dwarf_CFI *cache, Dwarf_Addr address, Dwarf_Frame **frame),
	   (cache, address, frame))
LAZYLIB_FN(libdw, int, dwarf_frame_cfa,
	   (Dwarf_Frame *frame, Dwarf_Op **ops, size_t *nops),
	   (frame, ops, nops))
LAZYLIB_FN(libdw, int, dwarf_frame_info,
	   (Dwarf_Frame *frame, Dwarf_Addr *start, Dwarf_Addr *end,
	    bool *signalp),
	   (frame, start, end, signalp))
LAZYLIB_FN(libdw, int, dwarf_frame_register,
	   (Dwarf_Frame *frame, int regno, Dwarf_Op ops_mem[3],
	    Dwarf_Op **ops, size_t *nops),
	   (frame, regno, ops_mem, ops, nops))
LAZYLIB_FN(libdw, ssize_t, dwelf_dwarf_gnu_debugaltlink,
	   (Dwarf *dwarf, const char **namep, const void **build_idp),
	   (dwarf, namep, build_idp))
LAZYLIB_FN(libdw, ssize_t, dwelf_elf_gnu_build_id,
	   (Elf *elf, const void **build_idp), (elf, build_idp))
LAZYLIB_FN(libdw, Dwfl_Module *, dwfl_addrmodule,
	   (Dwfl *dwfl, Dwarf_Addr address), (dwfl, address))
LAZYLIB_FN(libdw, bool, dwfl_attach_state,
	   (Dwfl *dwfl, Elf *elf, pid_t pid,
	    const Dwfl_Thread_Callbacks *thread_callbacks, void *dwfl_arg),
	   (dwfl, elf, pid, thread_callbacks, dwfl_arg))
LAZYLIB_FN(libdw, Dwfl *, dwfl_begin, (const Dwfl_Callbacks *callbacks),
	   (callbacks))
LAZYLIB_VOID(libdw, dwfl_end, (Dwfl *dwfl), (dwfl))
LAZYLIB_FN(libdw, bool, dwfl_frame_pc,
	   (Dwfl_Frame *state, Dwarf_Addr *pc, bool *isactivation),
	   (state, pc, isactivation))
LAZYLIB_FN(libdw, int, dwfl_getthread_frames,
	   (Dwfl *dwfl, pid_t tid,
	    int (*callback)(Dwfl_Frame *thread, void *arg), void *arg),
	   (dwfl, tid, callback, arg))
LAZYLIB_FN(libdw, const char *, dwfl_lineinfo,
	   (Dwfl_Line *line, Dwarf_Addr *addr, int *linep, int *colp,
	    Dwarf_Word *mtime, Dwarf_Word *length),
	   (line, addr, linep, colp, mtime, length))
LAZYLIB_FN(libdw, int, dwfl_module_build_id,
	   (Dwfl_Module *mod, const unsigned char **bits, GElf_Addr *vaddr),
	   (mod, bits, vaddr))
LAZYLIB_FN(libdw, Dwarf_CFI *, dwfl_module_dwarf_cfi,
	   (Dwfl_Module *mod, Dwarf_Addr *bias), (mod, bias))
LAZYLIB_FN(libdw, Dwarf_CFI *, dwfl_module_eh_cfi,
	   (Dwfl_Module *mod, Dwarf_Addr *bias), (mod, bias))
LAZYLIB_FN(libdw, Dwarf *, dwfl_module_getdwarf,
	   (Dwfl_Module *mod, Dwarf_Addr *bias), (mod, bias))
LAZYLIB_FN(libdw, Dwfl_Line *, dwfl_module_getsrc,
	   (Dwfl_Module *mod, Dwarf_Addr addr), (mod, addr))
LAZYLIB_FN(libdw, const char *, dwfl_module_info,
	   (Dwfl_Module *mod, void ***userdata, Dwarf_Addr *start,
	    Dwarf_Addr *end, Dwarf_Addr *dwbias, Dwarf_Addr *symbias,
	    const char **mainfile, const char **debugfile),
	   (mod, userdata, start, end, dwbias, symbias, mainfile, debugfile))
LAZYLIB_VOID(libdw, dwfl_report_begin, (Dwfl *dwfl), (dwfl))
LAZYLIB_VOID(libdw, dwfl_report_begin_add, (Dwfl *dwfl), (dwfl))
LAZYLIB_FN(libdw, Dwfl_Module *, dwfl_report_elf,
	   (Dwfl *dwfl, const char *name, const char *file_name, int fd,
	    GElf_Addr base, bool add_p_vaddr),
	   (dwfl, name, file_name, fd, base, add_p_vaddr))
LAZYLIB_FN(libdw, int, dwfl_report_end,
	   (Dwfl *dwfl,
	    int (*removed)(Dwfl_Module *, void *, const char *, Dwarf_Addr,
			   void *arg),
	    void *arg),
	   (dwfl, removed, arg))
LAZYLIB_FN(libdw, int, dwfl_frame_reg,
	   (Dwfl_Frame *state, unsigned regno, Dwarf_Word *val),
	   (state, regno, val))
LAZYLIB_VOID(libdw, dwfl_thread_state_register_pc,
	     (Dwfl_Thread *thread, Dwarf_Word pc), (thread, pc))
LAZYLIB_FN(libdw, bool, dwfl_thread_state_registers,
	   (Dwfl_Thread *thread, int firstreg, unsigned nregs,
	    const Dwarf_Word *regs),
	   (thread, firstreg, nregs, regs))
