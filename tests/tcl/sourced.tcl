# SPDX-License-Identifier: GPL-2.0-or-later
# sourced.tcl: a file frames.tcl sources, whose proc calls frames.tcl's.
proc loaded {} {
	return [probe sourced]
}
