# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/behaviour.mk: fixtures for control flow and calling conventions
# through traced calls (included from Makefile.am).

# Fixture programs are optimised (-O2) and call the libraries through the
# PLT; builtins are off so that the compiler keeps every libc call it could
# otherwise inline or drop (malloc/free pairs, strlen of a constant).
BHV_DIR = tests/progs/behaviour
BHV_CFLAGS = $(AM_CFLAGS) -O2 -fno-builtin -pthread
BHV_CXXFLAGS = -Wall -Wextra -O2
BHV_LINK_FLAGS = -pthread -Wl,-rpath,'$$ORIGIN'

# libbhv.so: the C library whose calls are traced.
check_PROGRAMS += tests/progs/bin/libbhv.so
tests_progs_bin_libbhv_so_SOURCES = $(BHV_DIR)/libbhv.c $(BHV_DIR)/libbhv.h
tests_progs_bin_libbhv_so_CFLAGS = $(AM_CFLAGS) -O2 -fPIC -pthread
tests_progs_bin_libbhv_so_LDFLAGS = -shared -pthread -Wl,-soname,libbhv.so

# libbhvxx.so: the C++ library that throws, or lets exceptions through.
check_PROGRAMS += tests/progs/bin/libbhvxx.so
tests_progs_bin_libbhvxx_so_SOURCES = $(BHV_DIR)/libbhvxx.cc $(BHV_DIR)/libbhvxx.h
tests_progs_bin_libbhvxx_so_CXXFLAGS = $(BHV_CXXFLAGS) -fPIC
tests_progs_bin_libbhvxx_so_LDFLAGS = -shared -Wl,-soname,libbhvxx.so

# Programs linked with libbhv.so.
check_PROGRAMS += tests/progs/bin/bhv-threads
tests_progs_bin_bhv_threads_SOURCES = $(BHV_DIR)/threads.c
tests_progs_bin_bhv_threads_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_threads_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_threads_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_threads_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-fork
tests_progs_bin_bhv_fork_SOURCES = $(BHV_DIR)/fork.c
tests_progs_bin_bhv_fork_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_fork_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_fork_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_fork_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-vfork
tests_progs_bin_bhv_vfork_SOURCES = $(BHV_DIR)/vfork.c
tests_progs_bin_bhv_vfork_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_vfork_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_vfork_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_vfork_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-exec
tests_progs_bin_bhv_exec_SOURCES = $(BHV_DIR)/exec.c
tests_progs_bin_bhv_exec_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_exec_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_exec_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_exec_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-signal
tests_progs_bin_bhv_signal_SOURCES = $(BHV_DIR)/signal.c
tests_progs_bin_bhv_signal_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_signal_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_signal_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_signal_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-words
tests_progs_bin_bhv_words_SOURCES = $(BHV_DIR)/words.c
tests_progs_bin_bhv_words_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_words_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_words_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_words_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-longjmp
tests_progs_bin_bhv_longjmp_SOURCES = $(BHV_DIR)/longjmp.c
tests_progs_bin_bhv_longjmp_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_longjmp_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_longjmp_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_longjmp_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-pthread-exit
tests_progs_bin_bhv_pthread_exit_SOURCES = $(BHV_DIR)/pthread-exit.c
tests_progs_bin_bhv_pthread_exit_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_pthread_exit_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_pthread_exit_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_pthread_exit_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-exit
tests_progs_bin_bhv_exit_SOURCES = $(BHV_DIR)/exit.c
tests_progs_bin_bhv_exit_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_exit_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_exit_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_exit_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-abi
tests_progs_bin_bhv_abi_SOURCES = $(BHV_DIR)/abi.c
tests_progs_bin_bhv_abi_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_abi_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_abi_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_abi_DEPENDENCIES = tests/progs/bin/libbhv.so

check_PROGRAMS += tests/progs/bin/bhv-qsort
tests_progs_bin_bhv_qsort_SOURCES = $(BHV_DIR)/qsort.c
tests_progs_bin_bhv_qsort_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_bhv_qsort_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_qsort_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_bhv_qsort_DEPENDENCIES = tests/progs/bin/libbhv.so

# Programs that call libc only.
check_PROGRAMS += tests/progs/bin/bhv-printf
tests_progs_bin_bhv_printf_SOURCES = $(BHV_DIR)/printf.c
tests_progs_bin_bhv_printf_CFLAGS = $(BHV_CFLAGS)

check_PROGRAMS += tests/progs/bin/bhv-alloc
tests_progs_bin_bhv_alloc_SOURCES = $(BHV_DIR)/alloc.c
tests_progs_bin_bhv_alloc_CFLAGS = $(BHV_CFLAGS)

# C++: exceptions through libbhvxx.so.
check_PROGRAMS += tests/progs/bin/bhv-exceptions
tests_progs_bin_bhv_exceptions_SOURCES = $(BHV_DIR)/exceptions.cc
tests_progs_bin_bhv_exceptions_CXXFLAGS = $(BHV_CXXFLAGS)
tests_progs_bin_bhv_exceptions_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_bhv_exceptions_LDADD = tests/progs/bin/libbhvxx.so
tests_progs_bin_bhv_exceptions_DEPENDENCIES = tests/progs/bin/libbhvxx.so

# Footprint: the room the interposer takes (address space, stack, time).
FOOT_DIR = tests/progs/footprint
check_PROGRAMS += tests/progs/bin/foot-seqthreads tests/progs/bin/foot-smallstack \
	tests/progs/bin/foot-allocate tests/progs/bin/foot-seqprocs
tests_progs_bin_foot_seqthreads_SOURCES = $(FOOT_DIR)/seqthreads.c
tests_progs_bin_foot_seqthreads_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_foot_seqthreads_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_foot_seqthreads_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_foot_seqthreads_DEPENDENCIES = tests/progs/bin/libbhv.so
tests_progs_bin_foot_seqprocs_SOURCES = $(FOOT_DIR)/seqprocs.c
tests_progs_bin_foot_seqprocs_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_foot_seqprocs_LDFLAGS = $(BHV_LINK_FLAGS)
tests_progs_bin_foot_seqprocs_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_foot_seqprocs_DEPENDENCIES = tests/progs/bin/libbhv.so
tests_progs_bin_foot_smallstack_SOURCES = $(FOOT_DIR)/smallstack.c
tests_progs_bin_foot_smallstack_CFLAGS = $(BHV_CFLAGS)
tests_progs_bin_foot_smallstack_LDFLAGS = $(BHV_LINK_FLAGS) -Wl,-z,lazy
tests_progs_bin_foot_smallstack_LDADD = tests/progs/bin/libbhv.so
tests_progs_bin_foot_smallstack_DEPENDENCIES = tests/progs/bin/libbhv.so
tests_progs_bin_foot_allocate_SOURCES = $(FOOT_DIR)/allocate.c
tests_progs_bin_foot_allocate_CFLAGS = $(BHV_CFLAGS)
