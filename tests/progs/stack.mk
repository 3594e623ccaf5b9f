# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/stack.mk: fixtures that switch stacks or skip returns under
# traced calls (tests/behaviour.bats; included from Makefile.am).
STK_DIR = tests/progs/stack

# libcoro.so: resume and yield through swapcontext.
check_PROGRAMS += tests/progs/bin/libcoro.so
tests_progs_bin_libcoro_so_SOURCES = $(STK_DIR)/libcoro.c $(STK_DIR)/libcoro.h
tests_progs_bin_libcoro_so_CFLAGS = $(AM_CFLAGS) -O2 -fPIC
tests_progs_bin_libcoro_so_LDFLAGS = -shared -Wl,-soname,libcoro.so

check_PROGRAMS += tests/progs/bin/stk-coro
tests_progs_bin_stk_coro_SOURCES = $(STK_DIR)/coro.c
tests_progs_bin_stk_coro_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_coro_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_coro_LDADD = tests/progs/bin/libcoro.so tests/progs/bin/libbhv.so
tests_progs_bin_stk_coro_DEPENDENCIES = tests/progs/bin/libcoro.so tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/stk-jumpout
tests_progs_bin_stk_jumpout_SOURCES = $(STK_DIR)/jumpout.c
tests_progs_bin_stk_jumpout_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_jumpout_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_jumpout_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_jumpout_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/stk-deep
tests_progs_bin_stk_deep_SOURCES = $(STK_DIR)/deep.c
tests_progs_bin_stk_deep_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_deep_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_deep_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_deep_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/stk-slowcopy
tests_progs_bin_stk_slowcopy_SOURCES = $(STK_DIR)/slowcopy.c
tests_progs_bin_stk_slowcopy_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_slowcopy_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_slowcopy_LDADD = tests/progs/bin/libtyped.so
tests_progs_bin_stk_slowcopy_DEPENDENCIES = tests/progs/bin/libtyped.so

check_PROGRAMS += tests/progs/bin/stk-backtrace
tests_progs_bin_stk_backtrace_SOURCES = $(STK_DIR)/backtrace.c
tests_progs_bin_stk_backtrace_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_backtrace_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_backtrace_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_backtrace_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/stk-rawclone
tests_progs_bin_stk_rawclone_SOURCES = $(STK_DIR)/rawclone.c
tests_progs_bin_stk_rawclone_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_rawclone_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_rawclone_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_rawclone_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/stk-cancel
tests_progs_bin_stk_cancel_SOURCES = $(STK_DIR)/cancel.cc
tests_progs_bin_stk_cancel_CXXFLAGS = $(BHV_CXXFLAGS) -pthread
tests_progs_bin_stk_cancel_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_cancel_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_cancel_DEPENDENCIES = tests/progs/bin/libbhv.so

# Its own copy of the C++ runtime and of libgcc's unwinder.
check_PROGRAMS += tests/progs/bin/stk-static-throw
tests_progs_bin_stk_static_throw_SOURCES = $(STK_DIR)/static-throw.cc
tests_progs_bin_stk_static_throw_CXXFLAGS = $(BHV_CXXFLAGS)
tests_progs_bin_stk_static_throw_LDFLAGS = $(BHV_LINK_FLAGS) \
	-static-libgcc -static-libstdc++
tests_progs_bin_stk_static_throw_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_static_throw_DEPENDENCIES = tests/progs/bin/libbhv.so

# Coroutines that share one stack area, copied in and out.
check_PROGRAMS += tests/progs/bin/stk-copystack
tests_progs_bin_stk_copystack_SOURCES = $(STK_DIR)/copystack.c
tests_progs_bin_stk_copystack_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_copystack_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_copystack_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_stk_copystack_DEPENDENCIES = tests/progs/bin/libbhv.so

# libplug.so: a plugin with its own copy of the C++ runtime and unwinder,
# which throws through libbhv and libplughost; linked at start and dlopened.
check_PROGRAMS += tests/progs/bin/libplughost.so
tests_progs_bin_libplughost_so_SOURCES = $(STK_DIR)/libplughost.c \
	$(STK_DIR)/libplughost.h
tests_progs_bin_libplughost_so_CFLAGS = $(AM_CFLAGS) -O2 -fPIC
tests_progs_bin_libplughost_so_LDFLAGS = -shared -Wl,-soname,libplughost.so \
	-Wl,-rpath,'$$ORIGIN'
tests_progs_bin_libplughost_so_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_libplughost_so_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/libplug.so
tests_progs_bin_libplug_so_SOURCES = $(STK_DIR)/libplug.cc $(STK_DIR)/libplug.h
tests_progs_bin_libplug_so_CXXFLAGS = $(BHV_CXXFLAGS) -fPIC
PLUG_SO_FLAGS = -shared -Wl,-rpath,'$$ORIGIN' -static-libgcc -static-libstdc++
tests_progs_bin_libplug_so_LDFLAGS = $(PLUG_SO_FLAGS) -Wl,-soname,libplug.so
tests_progs_bin_libplug_so_LDADD = tests/progs/bin/libplughost.so \
	tests/progs/bin/libbhv.so
tests_progs_bin_libplug_so_DEPENDENCIES = tests/progs/bin/libplughost.so \
	tests/progs/bin/libbhv.so

# stk-plug links libplug.so; stk-plug-dl loads it, or libplugx.so.
PLUG_LIBS = tests/progs/bin/libplug.so tests/progs/bin/libbhv.so
check_PROGRAMS += tests/progs/bin/stk-plug tests/progs/bin/stk-plug-dl
tests_progs_bin_stk_plug_SOURCES = $(STK_DIR)/plug.c
tests_progs_bin_stk_plug_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_stk_plug_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_plug_LDADD = $(PLUG_LIBS)
tests_progs_bin_stk_plug_DEPENDENCIES = $(PLUG_LIBS)

tests_progs_bin_stk_plug_dl_SOURCES = $(STK_DIR)/plug.c
tests_progs_bin_stk_plug_dl_CFLAGS = $(BHV_CFLAGS) -DPLUG_DLOPEN
tests_progs_bin_stk_plug_dl_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_stk_plug_dl_LDADD = tests/progs/bin/libbhv.so -ldl
tests_progs_bin_stk_plug_dl_DEPENDENCIES = $(PLUG_LIBS) tests/progs/bin/libplugx.so

# libplugx.so: the same plugin, its runtime hidden (--exclude-libs), as
# vendors ship them: no unique symbols, so dlclose unloads it.
check_PROGRAMS += tests/progs/bin/libplugx.so
tests_progs_bin_libplugx_so_SOURCES = $(tests_progs_bin_libplug_so_SOURCES)
tests_progs_bin_libplugx_so_CXXFLAGS = $(tests_progs_bin_libplug_so_CXXFLAGS)
tests_progs_bin_libplugx_so_LDFLAGS = $(PLUG_SO_FLAGS) -Wl,-soname,libplugx.so \
	-Wl,--exclude-libs,ALL
tests_progs_bin_libplugx_so_LDADD = $(tests_progs_bin_libplug_so_LDADD)
tests_progs_bin_libplugx_so_DEPENDENCIES = $(tests_progs_bin_libplug_so_DEPENDENCIES)
