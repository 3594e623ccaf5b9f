# SPDX-License-Identifier: GPL-2.0-or-later
# frames-deep.tcl CALLS DEPTH: CALLS calls of access(2) (file exists) from
# a Tcl proc DEPTH calls deep, for bench/run's cost of Tcl frames under
# -k; prints the loop's own time per call in ns: the process's CPU time
# (start-up left out, and the time a busy machine keeps it from a core),
# from /proc/self/stat, in ticks of 10 ms: Tcl has no finer CPU clock.

# The process's user and system time so far, in ns (USER_HZ is 100).
proc cpu_ns {} {
	set f [open /proc/self/stat]
	set stat [read $f]
	close $f
	set fields [split [string range $stat [expr {[string last ")" $stat] + 2}] end]]
	return [expr {([lindex $fields 11] + [lindex $fields 12]) * 10000000}]
}

proc down {depth calls} {
	if {$depth} {
		return [down [expr {$depth - 1}] $calls]
	}
	set t [cpu_ns]
	for {set i 0} {$i < $calls} {incr i} {
		file exists /nonexistent/frames-deep
	}
	return [expr {([cpu_ns] - $t) / double($calls)}]
}

lassign $argv calls depth
puts [format %.1f [down $depth $calls]]
