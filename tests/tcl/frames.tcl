# SPDX-License-Identifier: GPL-2.0-or-later
# frames.tcl: procs calling procs calling traced libc functions, for
# tests/tclframes.bats.  Each step says what it did, on stdout.
proc probe {path} {
	return [file exists $path]
}
proc middle {path} {
	return [probe $path]
}
proc outer {path} {
	return [middle $path]
}
proc up {path} {
	uplevel 1 [list probe $path]
}
proc cmp {a b} {
	probe /nonexistent/lsort
	return [string compare $a $b]
}
puts "outer [outer /nonexistent/outer]"
puts "apply [apply {{p} {probe $p}} /nonexistent/apply]"
puts "up [up /nonexistent/up]"
puts "lsort [lsort -command cmp {b a}]"
coroutine co apply {{} {yield [outer /nonexistent/coroutine]}}
puts "coroutine done"
