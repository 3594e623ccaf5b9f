# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/linkers.mk: one library and program linked by every linker
# and rewritten by patchelf (tests/linkers.bats), by a script: compiled
# once, linked some sixty times, in about two seconds.
# (included from Makefile.am)
LINKERS_SRC = tests/progs/linkers/build tests/progs/linkers/ln.h \
	tests/progs/linkers/ln.c tests/progs/linkers/libln.c \
	tests/progs/linkers/liblnxx.cc tests/progs/linkers/libdep.c
EXTRA_DIST += $(LINKERS_SRC)
check_DATA = tests/progs/bin/linkers/.built
tests/progs/bin/linkers/.built: $(addprefix $(srcdir)/,$(LINKERS_SRC))
	$(AM_V_GEN)CC='$(CC)' CXX='$(CXX)' $(SHELL) \
		$(srcdir)/tests/progs/linkers/build $(srcdir)/tests/progs/linkers \
		tests/progs/bin/linkers && touch $@
clean-local: clean-linkers
clean-linkers:
	rm -rf tests/progs/bin/linkers
.PHONY: clean-linkers
