#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# behaviour.bats: traced programs behave exactly as untraced ones.

load helpers
