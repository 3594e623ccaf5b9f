# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/patch.mk: fixtures of entry patching (tests/patch.bats).
# (included from Makefile.am)

# The program's own functions: -O2, without and with IBT's endbr64, PIE
# and not.
check_PROGRAMS += tests/progs/bin/patch-own tests/progs/bin/patch-own-cet \
	tests/progs/bin/patch-own-nopie
tests_progs_bin_patch_own_SOURCES = tests/progs/patch/own.c
tests_progs_bin_patch_own_CFLAGS = -O2 -fPIE -fcf-protection=none
tests_progs_bin_patch_own_LDFLAGS = -pie
tests_progs_bin_patch_own_cet_SOURCES = tests/progs/patch/own.c
tests_progs_bin_patch_own_cet_CFLAGS = -O2 -fPIE -fcf-protection=full
tests_progs_bin_patch_own_cet_LDFLAGS = -pie
tests_progs_bin_patch_own_nopie_SOURCES = tests/progs/patch/own.c
tests_progs_bin_patch_own_nopie_CFLAGS = -O2 -fno-PIE -fcf-protection=none
tests_progs_bin_patch_own_nopie_LDFLAGS = -no-pie

# A library's hidden helper and its self-calls (libpatch.so), called by
# patch-lib.
check_PROGRAMS += tests/progs/bin/libpatch.so tests/progs/bin/patch-lib
tests_progs_bin_libpatch_so_SOURCES = tests/progs/patch/libpatch.c \
	tests/progs/patch/libpatch.h
tests_progs_bin_libpatch_so_CFLAGS = -fPIC -O2
tests_progs_bin_libpatch_so_LDFLAGS = -shared -Wl,-soname,libpatch.so
tests_progs_bin_patch_lib_SOURCES = tests/progs/patch/lib-calls.c \
	tests/progs/patch/libpatch.h
tests_progs_bin_patch_lib_CFLAGS = -O2 -fPIE
tests_progs_bin_patch_lib_LDFLAGS = -pie -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN'
tests_progs_bin_patch_lib_LDADD = tests/progs/bin/libpatch.so

# A library opened with dlopen while 4 threads call a patched function.
check_PROGRAMS += tests/progs/bin/patch-dlopen
tests_progs_bin_patch_dlopen_SOURCES = tests/progs/patch/dlopen-threads.c
tests_progs_bin_patch_dlopen_CFLAGS = -O2 -fPIE -pthread
tests_progs_bin_patch_dlopen_LDFLAGS = -pie -pthread -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN'
tests_progs_bin_patch_dlopen_LDADD = -ldl

# A C++ exception, a longjmp and a fork through the program's own functions.
check_PROGRAMS += tests/progs/bin/patch-unwind
tests_progs_bin_patch_unwind_SOURCES = tests/progs/patch/unwind.cc
tests_progs_bin_patch_unwind_CXXFLAGS = -O2 -fPIE
tests_progs_bin_patch_unwind_LDFLAGS = -pie

# libpatch's exported function that it calls through its own PLT
# (selfplt.c), and a program that calls it too (patch-selfplt).
tests_progs_bin_libpatch_so_SOURCES += tests/progs/patch/selfplt.c \
	tests/progs/patch/selfplt.h
check_PROGRAMS += tests/progs/bin/patch-selfplt
tests_progs_bin_patch_selfplt_SOURCES = tests/progs/patch/selfplt-calls.c \
	tests/progs/patch/selfplt.h
tests_progs_bin_patch_selfplt_CFLAGS = -O2 -fPIE
tests_progs_bin_patch_selfplt_LDFLAGS = -pie -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN'
tests_progs_bin_patch_selfplt_LDADD = tests/progs/bin/libpatch.so
