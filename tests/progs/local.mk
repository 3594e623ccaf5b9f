# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/local.mk: fixture programs and libraries the suites trace.
# (included from Makefile.am)

# A statically linked program, for the refusal test.
check_PROGRAMS += tests/progs/bin/static-hello
tests_progs_bin_static_hello_SOURCES = tests/progs/hello.c
tests_progs_bin_static_hello_LDFLAGS = -static
