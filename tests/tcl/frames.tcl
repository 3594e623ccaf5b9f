# SPDX-License-Identifier: GPL-2.0-or-later
# frames.tcl: procs calling procs calling a traced libc function (file
# exists: access), for tests/tclframes.bats.  Each call names its
# scenario in the path it asks for; each step says what it got, on stdout.
# A line marked "# @TAG" is one a frame of the tests is at.
proc probe {what} {
	return [file exists /nonexistent/$what] ;# @probe
}
proc middle {what} {
	return [probe $what] ;# @middle
}
proc outer {what} {
	return [middle $what] ;# @outer
}
proc up {what} {
	uplevel 1 [list probe $what] ;# @up
}
proc loader {} {
	global here
	source [file join $here loaded.tcl] ;# @loader
}
proc cmp {a b} {
	probe lsort ;# @cmp
	return [string compare $a $b]
}
puts "outer [outer outer]" ;# @top-outer
puts "apply [apply {{w} {probe $w}} apply]" ;# @top-apply
puts "up [up up]" ;# @top-up
puts "lsort [lsort -command cmp {b a}]" ;# @top-lsort
puts "coroutine [coroutine co apply {{} {yield [outer coroutine]}}]"
co
set here [file dirname [info script]]
source [file join $here sourced.tcl] ;# @top-source
puts "sourced [loaded]" ;# @top-loaded
loader ;# @top-loader
