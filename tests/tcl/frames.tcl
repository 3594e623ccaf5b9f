# SPDX-License-Identifier: GPL-2.0-or-later
# frames.tcl: procs calling procs calling a traced libc function (file
# exists: access), for tests/tclframes.bats.  Each call names its
# scenario in the path it asks for; each step says what it got, on stdout.
proc probe {what} {
	return [file exists /nonexistent/$what]
}
proc middle {what} {
	return [probe $what]
}
proc outer {what} {
	return [middle $what]
}
proc up {what} {
	uplevel 1 [list probe $what]
}
proc cmp {a b} {
	probe lsort
	return [string compare $a $b]
}
puts "outer [outer outer]"
puts "apply [apply {{w} {probe $w}} apply]"
puts "up [up up]"
puts "lsort [lsort -command cmp {b a}]"
puts "coroutine [coroutine co apply {{} {yield [outer coroutine]}}]"
co
source [file join [file dirname [info script]] sourced.tcl]
puts "sourced [loaded]"
