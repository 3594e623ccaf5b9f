# SPDX-License-Identifier: GPL-2.0-or-later
# sourced.tcl: a file frames.tcl sources: its top level and its proc call frames.tcl's.
proc loaded {} {
	return [probe sourced] ;# @loaded
}
puts "sourced top [probe sourced-top]" ;# @sourced-top
