#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# binding.bats: every way a call reaches a library function is traced.

load helpers
