# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/tls.mk: libraries with initial-exec TLS, linked at start and
# dlopened, and a program that prints its GLIBC_TUNABLES (tests/tls.bats;
# included from Makefile.am).  The sizes: see tests/tls.bats.
TLS_DIR = tests/progs/tls
TLS_LIB_CFLAGS = $(AM_CFLAGS) -O2 -fPIC -ftls-model=initial-exec
TLS_LINK = -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN'

check_PROGRAMS += tests/progs/bin/libtls-start.so \
	tests/progs/bin/plugin/libtls-plugin.so tests/progs/bin/libtls-huge.so
tests_progs_bin_libtls_start_so_SOURCES = $(TLS_DIR)/libtls.c
tests_progs_bin_libtls_start_so_CFLAGS = $(TLS_LIB_CFLAGS) \
	-DTLS_SIZE=1024 -DTLS_FUNC=tls_start
tests_progs_bin_libtls_start_so_LDFLAGS = -shared -Wl,-soname,libtls-start.so
tests_progs_bin_plugin_libtls_plugin_so_SOURCES = $(TLS_DIR)/libtls.c
tests_progs_bin_plugin_libtls_plugin_so_CFLAGS = $(TLS_LIB_CFLAGS) \
	-DTLS_SIZE=1024 -DTLS_FUNC=tls_plugin
tests_progs_bin_plugin_libtls_plugin_so_LDFLAGS = -shared \
	-Wl,-soname,libtls-plugin.so
tests_progs_bin_libtls_huge_so_SOURCES = $(TLS_DIR)/libtls.c
tests_progs_bin_libtls_huge_so_CFLAGS = $(TLS_LIB_CFLAGS) \
	-DTLS_SIZE=1048576 -DTLS_FUNC=tls_huge
tests_progs_bin_libtls_huge_so_LDFLAGS = -shared -Wl,-soname,libtls-huge.so

check_PROGRAMS += tests/progs/bin/tls-dlopen tests/progs/bin/tls-huge \
	tests/progs/bin/tls-env
tests_progs_bin_tls_dlopen_SOURCES = $(TLS_DIR)/tls-dlopen.c
tests_progs_bin_tls_dlopen_LDFLAGS = $(TLS_LINK)
tests_progs_bin_tls_dlopen_LDADD = tests/progs/bin/libtls-start.so -ldl
tests_progs_bin_tls_dlopen_DEPENDENCIES = tests/progs/bin/libtls-start.so \
	tests/progs/bin/plugin/libtls-plugin.so
tests_progs_bin_tls_huge_SOURCES = $(TLS_DIR)/tls-huge.c
tests_progs_bin_tls_huge_LDFLAGS = $(TLS_LINK)
tests_progs_bin_tls_huge_LDADD = tests/progs/bin/libtls-huge.so
tests_progs_bin_tls_env_SOURCES = $(TLS_DIR)/tls-env.c
