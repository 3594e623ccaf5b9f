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
