# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/playback.mk: the library clients tests/playback.bats records
# and plays back (included from Makefile.am; libsqlite3-dev, zlib1g-dev).

check_PROGRAMS += tests/progs/bin/sqlite-client
tests_progs_bin_sqlite_client_SOURCES = tests/progs/playback/sqlite-client.c
tests_progs_bin_sqlite_client_LDADD = -lsqlite3 -lpthread

# A sqlite3 that returns something else, LD_PRELOAD'ed into a playback.
check_PROGRAMS += tests/progs/bin/libpbshim.so
tests_progs_bin_libpbshim_so_SOURCES = tests/progs/playback/shim.c
tests_progs_bin_libpbshim_so_CFLAGS = -fPIC -O2
tests_progs_bin_libpbshim_so_LDFLAGS = -shared

check_PROGRAMS += tests/progs/bin/zlib-stream
tests_progs_bin_zlib_stream_SOURCES = tests/progs/playback/zlib-stream.c
tests_progs_bin_zlib_stream_LDADD = -lz
