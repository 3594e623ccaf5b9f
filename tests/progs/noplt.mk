# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/noplt.mk: fixtures whose calls to hooked functions (unwinder,
# exec and spawn, _exit, credentials, signals, longjmp, dladdr) go through
# the GOT, as all Rust code's do: -fno-plt -z now builds of the sources of
# other fixtures, run by the same tests as those, and a Rust program
# (included from Makefile.am, after local.mk, behaviour.mk and stack.mk).
NOPLT_CFLAGS = -fno-plt
NOPLT_LDFLAGS = -Wl,-z,now

# Built as their originals are, plus NOPLT_*: behaviour.mk, stack.mk, local.mk.
NOPLT_BHV_CFLAGS = $(BHV_CFLAGS) $(NOPLT_CFLAGS)
NOPLT_BHV_LINK = $(BHV_LINK_FLAGS) $(NOPLT_LDFLAGS)
NOPLT_TRACE_CFLAGS = -O1 -fno-builtin $(NOPLT_CFLAGS)
check_PROGRAMS += tests/progs/bin/bhv-exceptions-noplt \
	tests/progs/bin/bhv-longjmp-noplt tests/progs/bin/stk-backtrace-noplt \
	tests/progs/bin/stk-cancel-noplt tests/progs/bin/execs-noplt \
	tests/progs/bin/procs-noplt tests/progs/bin/dropper-noplt \
	tests/progs/bin/strmem-noplt
tests_progs_bin_bhv_exceptions_noplt_SOURCES = $(BHV_DIR)/exceptions.cc
tests_progs_bin_bhv_exceptions_noplt_CXXFLAGS = $(BHV_CXXFLAGS) $(NOPLT_CFLAGS)
tests_progs_bin_bhv_exceptions_noplt_LDFLAGS = $(NOPLT_BHV_LINK)
tests_progs_bin_bhv_exceptions_noplt_LDADD = tests/progs/bin/libbhvxx.so
tests_progs_bin_bhv_longjmp_noplt_SOURCES = $(BHV_DIR)/longjmp.c
tests_progs_bin_bhv_longjmp_noplt_CFLAGS = $(NOPLT_BHV_CFLAGS)
tests_progs_bin_bhv_longjmp_noplt_LDFLAGS = $(NOPLT_BHV_LINK)
tests_progs_bin_bhv_longjmp_noplt_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_backtrace_noplt_SOURCES = $(STK_DIR)/backtrace.c
tests_progs_bin_stk_backtrace_noplt_CFLAGS = $(NOPLT_BHV_CFLAGS)
tests_progs_bin_stk_backtrace_noplt_LDFLAGS = $(NOPLT_BHV_LINK)
tests_progs_bin_stk_backtrace_noplt_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_cancel_noplt_SOURCES = $(STK_DIR)/cancel.cc
tests_progs_bin_stk_cancel_noplt_CXXFLAGS = $(BHV_CXXFLAGS) -pthread $(NOPLT_CFLAGS)
tests_progs_bin_stk_cancel_noplt_LDFLAGS = $(NOPLT_BHV_LINK)
tests_progs_bin_stk_cancel_noplt_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_execs_noplt_SOURCES = tests/progs/trace/execs.c
tests_progs_bin_execs_noplt_CFLAGS = $(NOPLT_TRACE_CFLAGS)
tests_progs_bin_execs_noplt_LDFLAGS = $(NOPLT_LDFLAGS)
tests_progs_bin_procs_noplt_SOURCES = tests/progs/trace/procs.c
tests_progs_bin_procs_noplt_CFLAGS = $(NOPLT_TRACE_CFLAGS)
tests_progs_bin_procs_noplt_LDFLAGS = $(NOPLT_LDFLAGS)
tests_progs_bin_dropper_noplt_SOURCES = tests/progs/trace/dropper.c
tests_progs_bin_dropper_noplt_CFLAGS = $(NOPLT_TRACE_CFLAGS)
tests_progs_bin_dropper_noplt_LDFLAGS = $(NOPLT_LDFLAGS)
tests_progs_bin_strmem_noplt_SOURCES = tests/progs/typed/strmem.c
tests_progs_bin_strmem_noplt_CFLAGS = -O2 -fno-builtin -pthread $(NOPLT_CFLAGS)
tests_progs_bin_strmem_noplt_LDFLAGS = $(FIX_RPATH) -pthread $(NOPLT_LDFLAGS)
tests_progs_bin_strmem_noplt_LDADD = tests/progs/bin/libtyped.so

# A PIE taking function pointers (GLOB_DAT) and calling dlsym and dladdr
# through the GOT.
check_PROGRAMS += tests/progs/bin/ptrid-noplt
tests_progs_bin_ptrid_noplt_SOURCES = tests/progs/binding/ptrid.c
tests_progs_bin_ptrid_noplt_CFLAGS = -O0 -fPIE -fno-builtin $(NOPLT_CFLAGS)
tests_progs_bin_ptrid_noplt_LDFLAGS = -pie $(FIX_RPATH) $(NOPLT_LDFLAGS)
tests_progs_bin_ptrid_noplt_LDADD = $(FIX_LIB) -ldl

# A -fno-plt plugin that calls posix_spawn, dlopened by a PIE and by a
# non-PIE program (whose plugins are patched at the next dlsym).
check_PROGRAMS += tests/progs/bin/plugin/libspawner.so \
	tests/progs/bin/dlspawn tests/progs/bin/dlspawn-nopie
tests_progs_bin_plugin_libspawner_so_SOURCES = tests/progs/binding/spawner.c
tests_progs_bin_plugin_libspawner_so_CFLAGS = $(PLUGIN_CFLAGS)
tests_progs_bin_plugin_libspawner_so_LDFLAGS = $(PLUGIN_LINK) -Wl,-soname,libspawner.so
tests_progs_bin_dlspawn_SOURCES = tests/progs/binding/dlspawn.c
tests_progs_bin_dlspawn_LDFLAGS = $(LOADER_LINK)
tests_progs_bin_dlspawn_LDADD = -ldl
tests_progs_bin_dlspawn_nopie_SOURCES = tests/progs/binding/dlspawn.c
tests_progs_bin_dlspawn_nopie_CFLAGS = -fno-PIE
tests_progs_bin_dlspawn_nopie_LDFLAGS = -no-pie $(LOADER_LINK)
tests_progs_bin_dlspawn_nopie_LDADD = -ldl

# The Rust program (tests/rust.bats), built when that suite runs: one
# file, rustc -O, a second or two.
RUST_PANIC = tests/progs/bin/rust-panic-spawn
$(RUST_PANIC): $(srcdir)/tests/progs/rust/panic-spawn.rs
	@$(MKDIR_P) tests/progs/bin
	$(AM_V_GEN)if test -z '$(RUSTC)'; then \
		echo "rustc not found: install the Debian package 'rustc' (or run ./setup), then ./configure" >&2; \
		exit 1; \
	fi; \
	$(RUSTC) -O -o $@ $(srcdir)/tests/progs/rust/panic-spawn.rs
tests/rust.log: $(RUST_PANIC)
CLEANFILES += $(RUST_PANIC)
EXTRA_DIST += tests/progs/rust/panic-spawn.rs
