# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/local.mk: fixture programs and libraries the suites trace.
# (included from Makefile.am)

# A statically linked program, for the refusal test.
check_PROGRAMS += tests/progs/bin/static-hello
tests_progs_bin_static_hello_SOURCES = tests/progs/hello.c
tests_progs_bin_static_hello_LDFLAGS = -static

# ---- binding fixtures: one library, one program built every way ----------
FIX_LIB = tests/progs/bin/libfix.so
FIX_RPATH = -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN'
check_PROGRAMS += tests/progs/bin/libfix.so
tests_progs_bin_libfix_so_SOURCES = tests/progs/binding/libfix.c \
	tests/progs/binding/libfix.h
tests_progs_bin_libfix_so_CFLAGS = -fPIC -O2
tests_progs_bin_libfix_so_LDFLAGS = -shared -Wl,-soname,libfix.so \
	-Wl,--version-script=$(srcdir)/tests/progs/binding/libfix.map
EXTRA_DIST += tests/progs/binding/libfix.map

FIX_CALLS_SRC = tests/progs/binding/calls.c tests/progs/binding/libfix.h
check_PROGRAMS += tests/progs/bin/fix-lazy tests/progs/bin/fix-now \
	tests/progs/bin/fix-nopie tests/progs/bin/fix-noplt \
	tests/progs/bin/fix-noplt-nopie tests/progs/bin/fix-ibt
tests_progs_bin_fix_lazy_SOURCES = $(FIX_CALLS_SRC)
tests_progs_bin_fix_lazy_CFLAGS = -O2 -fPIE -fno-builtin
tests_progs_bin_fix_lazy_LDFLAGS = -pie -Wl,-z,lazy $(FIX_RPATH)
tests_progs_bin_fix_lazy_LDADD = $(FIX_LIB)
tests_progs_bin_fix_now_SOURCES = $(FIX_CALLS_SRC)
tests_progs_bin_fix_now_CFLAGS = -O2 -fPIE -fno-builtin
tests_progs_bin_fix_now_LDFLAGS = -pie -Wl,-z,now -Wl,-z,relro $(FIX_RPATH)
tests_progs_bin_fix_now_LDADD = $(FIX_LIB)
tests_progs_bin_fix_nopie_SOURCES = $(FIX_CALLS_SRC)
tests_progs_bin_fix_nopie_CFLAGS = -O2 -fno-PIE -fno-builtin
tests_progs_bin_fix_nopie_LDFLAGS = -no-pie -Wl,-z,lazy $(FIX_RPATH)
tests_progs_bin_fix_nopie_LDADD = $(FIX_LIB)
tests_progs_bin_fix_noplt_SOURCES = $(FIX_CALLS_SRC)
tests_progs_bin_fix_noplt_CFLAGS = -O2 -fPIE -fno-plt -fno-builtin
tests_progs_bin_fix_noplt_LDFLAGS = -pie -Wl,-z,now $(FIX_RPATH)
tests_progs_bin_fix_noplt_LDADD = $(FIX_LIB)
tests_progs_bin_fix_noplt_nopie_SOURCES = $(FIX_CALLS_SRC)
tests_progs_bin_fix_noplt_nopie_CFLAGS = -O2 -fno-PIE -fno-plt -fno-builtin
tests_progs_bin_fix_noplt_nopie_LDFLAGS = -no-pie $(FIX_RPATH)
tests_progs_bin_fix_noplt_nopie_LDADD = $(FIX_LIB)
tests_progs_bin_fix_ibt_SOURCES = $(FIX_CALLS_SRC)
tests_progs_bin_fix_ibt_CFLAGS = -O2 -fPIE -fcf-protection=full -fno-builtin
tests_progs_bin_fix_ibt_LDFLAGS = -pie -Wl,-z,ibtplt -Wl,-z,lazy $(FIX_RPATH)
tests_progs_bin_fix_ibt_LDADD = $(FIX_LIB)

check_PROGRAMS += tests/progs/bin/fix-ver-old tests/progs/bin/fix-ver-new \
	tests/progs/bin/fix-rtld-next tests/progs/bin/fix-dlopen \
	tests/progs/bin/plugin/libplugin.so
tests_progs_bin_fix_ver_old_SOURCES = tests/progs/binding/ver-old.c
tests_progs_bin_fix_ver_old_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_fix_ver_old_LDADD = $(FIX_LIB)
tests_progs_bin_fix_ver_new_SOURCES = tests/progs/binding/ver-new.c
tests_progs_bin_fix_ver_new_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_fix_ver_new_LDADD = $(FIX_LIB)
tests_progs_bin_fix_rtld_next_SOURCES = tests/progs/binding/rtld-next.c
tests_progs_bin_fix_rtld_next_LDFLAGS = $(FIX_RPATH) -Wl,--no-as-needed
tests_progs_bin_fix_rtld_next_LDADD = $(FIX_LIB) -ldl
# Plugins in bin/plugin/: -fno-plt calls into libfix, found in bin/.
PLUGIN_CFLAGS = -fPIC -O2 -fno-plt
PLUGIN_LINK = -shared -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN/..' -Wl,-z,now
tests_progs_bin_plugin_libplugin_so_SOURCES = tests/progs/binding/plugin.c
tests_progs_bin_plugin_libplugin_so_CFLAGS = $(PLUGIN_CFLAGS)
tests_progs_bin_plugin_libplugin_so_LDFLAGS = $(PLUGIN_LINK) -Wl,-soname,libplugin.so
tests_progs_bin_plugin_libplugin_so_LDADD = $(FIX_LIB)
tests_progs_bin_fix_dlopen_SOURCES = tests/progs/binding/dlopen.c
tests_progs_bin_fix_dlopen_LDFLAGS = -Wl,--enable-new-dtags \
	-Wl,-rpath,'$$ORIGIN/plugin' -Wl,--no-as-needed
tests_progs_bin_fix_dlopen_LDADD = -ldl

# A program whose loader does not exist: execve fails after the checks.
check_PROGRAMS += tests/progs/bin/bad-interp
tests_progs_bin_bad_interp_SOURCES = tests/progs/hello.c
tests_progs_bin_bad_interp_LDFLAGS = -Wl,--dynamic-linker=/nonexistent/ld-ltruss.so.2

# ---- trace output fixtures ------------------------------------------------
check_PROGRAMS += tests/progs/bin/blocker tests/progs/bin/die \
	tests/progs/bin/slow
tests_progs_bin_blocker_SOURCES = tests/progs/trace/blocker.c
tests_progs_bin_blocker_CFLAGS = -O2 -pthread -fno-builtin
tests_progs_bin_blocker_LDFLAGS = -pthread
tests_progs_bin_die_SOURCES = tests/progs/trace/die.c
tests_progs_bin_die_CFLAGS = -O1 -pthread
tests_progs_bin_die_LDFLAGS = $(FIX_RPATH) -pthread
tests_progs_bin_die_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/onesig
tests_progs_bin_onesig_SOURCES = tests/progs/trace/onesig.c
tests_progs_bin_onesig_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_onesig_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/uninit
tests_progs_bin_uninit_SOURCES = tests/progs/trace/uninit.c
tests_progs_bin_uninit_CFLAGS = -O0
tests_progs_bin_uninit_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_uninit_LDADD = $(FIX_LIB)
tests_progs_bin_slow_SOURCES = tests/progs/trace/slow.c
tests_progs_bin_slow_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_slow_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/stall
tests_progs_bin_stall_SOURCES = tests/progs/trace/stall.c
tests_progs_bin_stall_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_stall_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/ltr-mutate
tests_progs_bin_ltr_mutate_SOURCES = tests/progs/trace/ltr-mutate.c bin/util/crc32.c \
	tests/progs/trace/ltr-encode.h
tests_progs_bin_ltr_mutate_CFLAGS = -O1
check_PROGRAMS += tests/progs/bin/ltr-gen
tests_progs_bin_ltr_gen_SOURCES = tests/progs/trace/ltr-gen.c bin/util/crc32.c
tests_progs_bin_ltr_gen_CFLAGS = -O1
check_PROGRAMS += tests/progs/bin/cxx
tests_progs_bin_cxx_SOURCES = tests/progs/trace/cxx.cc
tests_progs_bin_cxx_CXXFLAGS = -O1
check_PROGRAMS += tests/progs/bin/caller
tests_progs_bin_caller_SOURCES = tests/progs/trace/caller.c
tests_progs_bin_caller_CFLAGS = -O1 -g
tests_progs_bin_caller_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_caller_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/spin
tests_progs_bin_spin_SOURCES = tests/progs/trace/spin.c
tests_progs_bin_spin_CFLAGS = -O1 -pthread
tests_progs_bin_spin_LDFLAGS = $(FIX_RPATH) -pthread
tests_progs_bin_spin_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/libmanyf.so tests/progs/bin/xproc
tests_progs_bin_libmanyf_so_SOURCES = tests/progs/trace/libmanyf.c
tests_progs_bin_libmanyf_so_CFLAGS = -fPIC -O1
tests_progs_bin_libmanyf_so_LDFLAGS = -shared -Wl,-soname,libmanyf.so
tests_progs_bin_xproc_SOURCES = tests/progs/trace/xproc.c
tests_progs_bin_xproc_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_xproc_LDADD = -ldl
check_PROGRAMS += tests/progs/bin/procs tests/progs/bin/sigbind
check_PROGRAMS += tests/progs/bin/vforks
tests_progs_bin_vforks_SOURCES = tests/progs/trace/vforks.c
tests_progs_bin_vforks_CFLAGS = -O1 -fno-builtin -pthread
tests_progs_bin_vforks_LDFLAGS = -pthread
check_PROGRAMS += tests/progs/bin/execs tests/progs/bin/forkenv
check_PROGRAMS += tests/progs/bin/ctor-dlsym tests/progs/bin/aliases
tests_progs_bin_aliases_SOURCES = tests/progs/binding/aliases.c
tests_progs_bin_aliases_CFLAGS = -O1 -fno-builtin
tests_progs_bin_aliases_LDADD = -ldl
tests_progs_bin_ctor_dlsym_SOURCES = tests/progs/binding/ctor-dlsym.c
tests_progs_bin_ctor_dlsym_CFLAGS = -O1 -fno-builtin
tests_progs_bin_ctor_dlsym_LDADD = -ldl
# libbypath.so has no soname: bypath's DT_NEEDED is the path it was linked by.
check_PROGRAMS += tests/progs/bin/libbypath.so tests/progs/bin/bypath
tests_progs_bin_libbypath_so_SOURCES = tests/progs/binding/libbypath.c
tests_progs_bin_libbypath_so_CFLAGS = -fPIC -O1
tests_progs_bin_libbypath_so_LDFLAGS = -shared
tests_progs_bin_bypath_SOURCES = tests/progs/binding/bypath.c
tests_progs_bin_bypath_LDADD = tests/progs/bin/libbypath.so
tests_progs_bin_bypath_DEPENDENCIES = tests/progs/bin/libbypath.so
tests_progs_bin_execs_SOURCES = tests/progs/trace/execs.c
tests_progs_bin_execs_CFLAGS = -O1 -fno-builtin
tests_progs_bin_forkenv_SOURCES = tests/progs/trace/forkenv.c
tests_progs_bin_forkenv_CFLAGS = -O1 -fno-builtin -pthread
tests_progs_bin_forkenv_LDFLAGS = -pthread
tests_progs_bin_procs_SOURCES = tests/progs/trace/procs.c
tests_progs_bin_procs_CFLAGS = -O1 -fno-builtin
tests_progs_bin_sigbind_SOURCES = tests/progs/trace/sigbind.c
tests_progs_bin_sigbind_CFLAGS = -O1
tests_progs_bin_sigbind_LDFLAGS = $(FIX_RPATH) -Wl,-z,lazy
tests_progs_bin_sigbind_LDADD = tests/progs/bin/libmanyf.so -ldl
check_PROGRAMS += tests/progs/bin/manycalls
tests_progs_bin_manycalls_SOURCES = tests/progs/trace/manycalls.c
tests_progs_bin_manycalls_CFLAGS = -O1
tests_progs_bin_manycalls_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_manycalls_LDADD = tests/progs/bin/libmanyf.so
check_PROGRAMS += tests/progs/bin/altstack tests/progs/bin/manythreads
tests_progs_bin_altstack_SOURCES = tests/progs/trace/altstack.c
tests_progs_bin_altstack_CFLAGS = -O1 -pthread -fno-builtin
tests_progs_bin_altstack_LDFLAGS = -pthread
tests_progs_bin_manythreads_SOURCES = tests/progs/trace/manythreads.c
tests_progs_bin_manythreads_CFLAGS = -O1 -pthread
tests_progs_bin_manythreads_LDFLAGS = $(FIX_RPATH) -pthread
tests_progs_bin_manythreads_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/busythreads
tests_progs_bin_busythreads_SOURCES = tests/progs/trace/busythreads.c
tests_progs_bin_busythreads_CFLAGS = -O1 -pthread
tests_progs_bin_busythreads_LDFLAGS = $(FIX_RPATH) -pthread
tests_progs_bin_busythreads_LDADD = $(FIX_LIB)
check_PROGRAMS += tests/progs/bin/turns
tests_progs_bin_turns_SOURCES = tests/progs/trace/turns.c
tests_progs_bin_turns_CFLAGS = -O1 -pthread
tests_progs_bin_turns_LDFLAGS = $(FIX_RPATH) -pthread
tests_progs_bin_turns_LDADD = $(FIX_LIB)

# ---- typed-output fixtures: a library with every argument kind -------------
check_PROGRAMS += tests/progs/bin/libtyped.so tests/progs/bin/typed
tests_progs_bin_libtyped_so_SOURCES = tests/progs/typed/libtyped.c \
	tests/progs/typed/libtyped.h
tests_progs_bin_libtyped_so_CFLAGS = -fPIC -O2
tests_progs_bin_libtyped_so_LDFLAGS = -shared -Wl,-soname,libtyped.so
tests_progs_bin_typed_SOURCES = tests/progs/typed/typed.c
tests_progs_bin_typed_CFLAGS = -O2 -fno-builtin
tests_progs_bin_typed_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_typed_LDADD = tests/progs/bin/libtyped.so
check_PROGRAMS += tests/progs/bin/strmem
tests_progs_bin_strmem_SOURCES = tests/progs/typed/strmem.c
tests_progs_bin_strmem_CFLAGS = -O2 -fno-builtin -pthread
tests_progs_bin_strmem_LDFLAGS = $(FIX_RPATH) -pthread
tests_progs_bin_strmem_LDADD = tests/progs/bin/libtyped.so
EXTRA_DIST += tests/progs/typed/typed.yaml
# numbers at their limits and strings to escape, each printed the fast way
check_PROGRAMS += tests/progs/bin/libnumbers.so tests/progs/bin/numbers
tests_progs_bin_libnumbers_so_SOURCES = tests/progs/typed/libnumbers.c \
	tests/progs/typed/libnumbers.h
tests_progs_bin_libnumbers_so_CFLAGS = -fPIC -O2
tests_progs_bin_libnumbers_so_LDFLAGS = -shared -Wl,-soname,libnumbers.so
tests_progs_bin_numbers_SOURCES = tests/progs/typed/numbers.c
tests_progs_bin_numbers_CFLAGS = -O2 -fno-builtin
tests_progs_bin_numbers_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_numbers_LDADD = tests/progs/bin/libnumbers.so
EXTRA_DIST += tests/progs/typed/numbers.yaml
check_PROGRAMS += tests/progs/bin/trickle
tests_progs_bin_trickle_SOURCES = tests/progs/trace/trickle.c
tests_progs_bin_trickle_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_trickle_LDADD = $(FIX_LIB)

check_PROGRAMS += tests/progs/bin/until
tests_progs_bin_until_SOURCES = tests/progs/trace/until.c
tests_progs_bin_until_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_until_LDADD = $(FIX_LIB)
# A root parent whose worker drops to nobody without exec (security.bats).
check_PROGRAMS += tests/progs/bin/dropper
tests_progs_bin_dropper_SOURCES = tests/progs/trace/dropper.c
tests_progs_bin_dropper_CFLAGS = -O1 -fno-builtin
# A program that enters seccomp (strict or filter), then calls (trace-lines.bats).
check_PROGRAMS += tests/progs/bin/sandboxed
tests_progs_bin_sandboxed_SOURCES = tests/progs/trace/sandboxed.c
tests_progs_bin_sandboxed_CFLAGS = -O1 -fno-builtin
tests_progs_bin_sandboxed_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_sandboxed_LDADD = $(FIX_LIB)

check_PROGRAMS += tests/progs/bin/printfs
tests_progs_bin_printfs_SOURCES = tests/progs/trace/printfs.c
tests_progs_bin_printfs_CFLAGS = -O1 -fno-builtin

check_PROGRAMS += tests/progs/bin/swaps
tests_progs_bin_swaps_SOURCES = tests/progs/trace/swaps.c
tests_progs_bin_swaps_CFLAGS = -O1 -fno-builtin

# ---- loader fixtures: plugins loaded and unloaded, threads, forks ---------
# They find plugin/libplugin.so and libmanyf.so by RUNPATH, and bind lazily.
LOADER_LINK = -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN/plugin' \
	-Wl,-rpath,'$$ORIGIN' -Wl,-z,lazy -pthread
check_PROGRAMS += tests/progs/bin/dlrace tests/progs/bin/forkthreads \
	tests/progs/bin/dlcycle tests/progs/bin/ptrid tests/progs/bin/dlctor \
	tests/progs/bin/plugin/libctor.so
tests_progs_bin_plugin_libctor_so_SOURCES = tests/progs/binding/ctor.c
tests_progs_bin_plugin_libctor_so_CFLAGS = $(PLUGIN_CFLAGS)
tests_progs_bin_plugin_libctor_so_LDFLAGS = $(PLUGIN_LINK) -Wl,-soname,libctor.so
tests_progs_bin_plugin_libctor_so_LDADD = $(FIX_LIB)
tests_progs_bin_dlctor_SOURCES = tests/progs/binding/dlctor.c
tests_progs_bin_dlctor_LDFLAGS = $(LOADER_LINK)
tests_progs_bin_dlctor_LDADD = -ldl
tests_progs_bin_dlrace_SOURCES = tests/progs/binding/dlrace.c
tests_progs_bin_dlrace_CFLAGS = -O1 -pthread
tests_progs_bin_dlrace_LDFLAGS = $(LOADER_LINK)
tests_progs_bin_dlrace_LDADD = tests/progs/bin/libmanyf.so -ldl
tests_progs_bin_forkthreads_SOURCES = tests/progs/binding/forkthreads.c
tests_progs_bin_forkthreads_CFLAGS = -O1 -pthread
tests_progs_bin_forkthreads_LDFLAGS = $(LOADER_LINK)
tests_progs_bin_forkthreads_LDADD = tests/progs/bin/libmanyf.so -ldl
tests_progs_bin_dlcycle_SOURCES = tests/progs/binding/dlcycle.c
tests_progs_bin_dlcycle_LDFLAGS = $(LOADER_LINK)
tests_progs_bin_dlcycle_LDADD = -ldl
# Two builds of one plugin, loaded one after the other at the same
# addresses (-k names each call's frames by the object there then).
check_PROGRAMS += tests/progs/bin/dlswap tests/progs/bin/plugin/libswapa.so \
	tests/progs/bin/plugin/libswapb.so
tests_progs_bin_dlswap_SOURCES = tests/progs/binding/dlswap.c
tests_progs_bin_dlswap_LDFLAGS = $(LOADER_LINK)
tests_progs_bin_dlswap_LDADD = -ldl
tests_progs_bin_plugin_libswapa_so_SOURCES = tests/progs/binding/swaplib.c
tests_progs_bin_plugin_libswapa_so_CFLAGS = $(PLUGIN_CFLAGS) -DSWAP_NAME=swapa
tests_progs_bin_plugin_libswapa_so_LDFLAGS = $(PLUGIN_LINK) -Wl,-soname,libswapa.so
tests_progs_bin_plugin_libswapa_so_LDADD = $(FIX_LIB)
tests_progs_bin_plugin_libswapb_so_SOURCES = tests/progs/binding/swaplib.c
tests_progs_bin_plugin_libswapb_so_CFLAGS = $(PLUGIN_CFLAGS) -DSWAP_NAME=swapb
tests_progs_bin_plugin_libswapb_so_LDFLAGS = $(PLUGIN_LINK) -Wl,-soname,libswapb.so
tests_progs_bin_plugin_libswapb_so_LDADD = $(FIX_LIB)
tests_progs_bin_ptrid_SOURCES = tests/progs/binding/ptrid.c
tests_progs_bin_ptrid_CFLAGS = -O0 -fPIE -fno-builtin
tests_progs_bin_ptrid_LDFLAGS = -pie $(FIX_RPATH)
tests_progs_bin_ptrid_LDADD = $(FIX_LIB) -ldl
check_PROGRAMS += tests/progs/bin/libtextrel.so tests/progs/bin/textrel
tests_progs_bin_libtextrel_so_SOURCES = tests/progs/binding/textrel.c
tests_progs_bin_libtextrel_so_CFLAGS = -O1 -fno-pic -mcmodel=large
tests_progs_bin_libtextrel_so_LDFLAGS = -shared -Wl,-soname,libtextrel.so \
	-Wl,-z,notext $(FIX_RPATH)
tests_progs_bin_libtextrel_so_LDADD = $(FIX_LIB)
tests_progs_bin_textrel_SOURCES = tests/progs/binding/textrel-main.c
tests_progs_bin_textrel_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_textrel_LDADD = tests/progs/bin/libtextrel.so $(FIX_LIB)


check_PROGRAMS += tests/progs/bin/leader-exit
tests_progs_bin_leader_exit_SOURCES = tests/progs/trace/leader-exit.c
tests_progs_bin_leader_exit_CFLAGS = -O1 -pthread
tests_progs_bin_leader_exit_LDFLAGS = -pthread

# ---- a program that writes over its own trace session (forged.bats) ------
check_PROGRAMS += tests/progs/bin/forge
tests_progs_bin_forge_SOURCES = tests/progs/forge/forge.c
tests_progs_bin_forge_LDADD = -ldl

# ---- call stacks (-k, tests/stacks.bats): built as distributions build,
# optimised and without frame pointers, so that only DWARF unwinds them.
STACKS_DIR = tests/progs/stacks
STACKS_CFLAGS = -O2 -fomit-frame-pointer -fno-builtin -g
check_PROGRAMS += tests/progs/bin/stacks-chain tests/progs/bin/stacks-sort \
	tests/progs/bin/stacks-thread tests/progs/bin/stacks-shapes \
	tests/progs/bin/stacks-forks tests/progs/bin/libnocfi.so \
	tests/progs/bin/stacks-nocfi tests/progs/bin/stacks-signal \
	tests/progs/bin/stacks-rounds tests/progs/bin/stacks-switch \
	tests/progs/bin/stacks-jit tests/progs/bin/stacks-repeat \
	tests/progs/bin/stacks-walks tests/progs/bin/stacks-relayout \
	tests/progs/bin/libstacks-laya.so tests/progs/bin/libstacks-layb.so
tests_progs_bin_stacks_relayout_SOURCES = $(STACKS_DIR)/relayout.c
tests_progs_bin_stacks_relayout_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_relayout_LDADD = -ldl
# The same code, a frame of another size: the same return addresses.
tests_progs_bin_libstacks_laya_so_SOURCES = $(STACKS_DIR)/layout.c
tests_progs_bin_libstacks_laya_so_CFLAGS = $(STACKS_CFLAGS) -fPIC -DPAD=300
tests_progs_bin_libstacks_laya_so_LDFLAGS = -shared
tests_progs_bin_libstacks_layb_so_SOURCES = $(STACKS_DIR)/layout.c
tests_progs_bin_libstacks_layb_so_CFLAGS = $(STACKS_CFLAGS) -fPIC -DPAD=3000
tests_progs_bin_libstacks_layb_so_LDFLAGS = -shared
tests_progs_bin_stacks_repeat_SOURCES = $(STACKS_DIR)/repeat.c
tests_progs_bin_stacks_repeat_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_walks_SOURCES = $(STACKS_DIR)/walks.c
tests_progs_bin_stacks_walks_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_jit_SOURCES = $(STACKS_DIR)/jit.c
tests_progs_bin_stacks_jit_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_rounds_SOURCES = $(STACKS_DIR)/rounds.c
tests_progs_bin_stacks_rounds_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_switch_SOURCES = $(STACKS_DIR)/switch.c
tests_progs_bin_stacks_switch_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_signal_SOURCES = $(STACKS_DIR)/signal.c
tests_progs_bin_stacks_signal_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_chain_SOURCES = $(STACKS_DIR)/chain.c
tests_progs_bin_stacks_chain_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_sort_SOURCES = $(STACKS_DIR)/sort.c
tests_progs_bin_stacks_sort_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_thread_SOURCES = $(STACKS_DIR)/thread.c
tests_progs_bin_stacks_thread_CFLAGS = $(STACKS_CFLAGS) -pthread
tests_progs_bin_stacks_thread_LDFLAGS = -pthread
tests_progs_bin_stacks_shapes_SOURCES = $(STACKS_DIR)/shapes.cc
tests_progs_bin_stacks_shapes_CXXFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_forks_SOURCES = $(STACKS_DIR)/forks.c
tests_progs_bin_stacks_forks_CFLAGS = $(STACKS_CFLAGS)
# No .eh_frame for nocfi_call, and no .debug_frame (CFLAGS may hold -g).
tests_progs_bin_libnocfi_so_SOURCES = $(STACKS_DIR)/libnocfi.c
tests_progs_bin_libnocfi_so_CFLAGS = $(STACKS_CFLAGS) -fPIC \
	-fno-asynchronous-unwind-tables -fno-unwind-tables
tests_progs_bin_libnocfi_so_LDFLAGS = -shared -Wl,-soname,libnocfi.so -Wl,--strip-debug
tests_progs_bin_stacks_nocfi_SOURCES = $(STACKS_DIR)/nocfi.c
tests_progs_bin_stacks_nocfi_CFLAGS = $(STACKS_CFLAGS)
tests_progs_bin_stacks_nocfi_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_stacks_nocfi_LDADD = tests/progs/bin/libnocfi.so
tests_progs_bin_stacks_nocfi_DEPENDENCIES = tests/progs/bin/libnocfi.so

# ---- selection: a library and functions of names past 63 bytes ------------
# The library's soname has 70 characters; the loader finds it by that name,
# a link to the file automake builds (tests/select.bats).
LONG_SONAME = libltruss_fixture_whose_short_name_runs_past_sixty_three_bytes_long.so
check_PROGRAMS += tests/progs/bin/liblongnames.so tests/progs/bin/longnames
tests_progs_bin_liblongnames_so_SOURCES = tests/progs/select/longnames.c \
	tests/progs/select/longnames.h
tests_progs_bin_liblongnames_so_CFLAGS = -fPIC -O2
tests_progs_bin_liblongnames_so_LDFLAGS = -shared -Wl,-soname,$(LONG_SONAME)
tests_progs_bin_longnames_SOURCES = tests/progs/select/longnames-main.c
tests_progs_bin_longnames_LDFLAGS = $(FIX_RPATH)
tests_progs_bin_longnames_LDADD = tests/progs/bin/liblongnames.so
tests_progs_bin_longnames_DEPENDENCIES = tests/progs/bin/liblongnames.so \
	tests/progs/bin/$(LONG_SONAME)
tests/progs/bin/$(LONG_SONAME): tests/progs/bin/liblongnames.so
	$(AM_V_GEN)ln -sf liblongnames.so $@
CLEANFILES += tests/progs/bin/$(LONG_SONAME)

# ---- --heap (tests/heap.bats): known allocations, built as -k's fixtures.
HEAP_DIR = tests/progs/heap
check_PROGRAMS += tests/progs/bin/heapfix tests/progs/bin/heapfix-cxx
tests_progs_bin_heapfix_SOURCES = $(HEAP_DIR)/heapfix.c
tests_progs_bin_heapfix_CFLAGS = $(STACKS_CFLAGS) -pthread
tests_progs_bin_heapfix_LDFLAGS = -pthread
tests_progs_bin_heapfix_cxx_SOURCES = $(HEAP_DIR)/heapfix-cxx.cc
tests_progs_bin_heapfix_cxx_CXXFLAGS = $(STACKS_CFLAGS)
