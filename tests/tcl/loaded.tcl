# SPDX-License-Identifier: GPL-2.0-or-later
# loaded.tcl: a file frames.tcl's proc loader sources (it runs in loader's CallFrame).
puts "loaded [probe loaded]" ;# @loaded-top
