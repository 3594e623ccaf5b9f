# SPDX-License-Identifier: GPL-2.0-or-later
# tests/progs/behaviour.mk: fixtures for control flow and calling conventions
# through traced calls (included from Makefile.am).
